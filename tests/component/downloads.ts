import { vi } from 'vitest'

/** What `downloadBlob` handed to the browser: each blob and the file name its link asked for. */
export interface Downloads {
  blobs: Blob[]
  names: string[]
  restore(): void
}

/** Catches downloads (object URLs and the link's click, which jsdom cannot follow) until `restore()`. */
export function captureDownloads(): Downloads {
  const blobs: Blob[] = []
  const names: string[] = []
  Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => {
      blobs.push(blob)
      return `blob:virtbench/${blobs.length}`
    }),
    revokeObjectURL: vi.fn()
  })
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download)
  })
  return { blobs, names, restore: () => click.mockRestore() }
}
