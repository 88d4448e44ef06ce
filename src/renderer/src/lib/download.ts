/**
 * Hands a file to the browser as a download named `fileName`: works the same in the desktop app
 * (Electron asks where to save it) and in a browser on `virtbench serve`.
 */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  try {
    link.click()
  } finally {
    link.remove()
    // The download has started from the click; the URL is not needed afterwards.
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }
}

/** downloadBlob for text (presets, chart SVGs). */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  downloadBlob(fileName, new Blob([text], { type }))
}
