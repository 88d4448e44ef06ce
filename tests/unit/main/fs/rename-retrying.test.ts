import { describe, expect, it } from 'vitest'
import { renameRetrying } from '../../../../src/main/fs/atomic-file'

function flaky(failures: string[]): { rename: (a: string, b: string) => Promise<void>; calls: number } {
  const state = {
    calls: 0,
    rename: async (): Promise<void> => {
      const code = failures[state.calls++]
      if (code) throw Object.assign(new Error(`${code}: operation not permitted, rename`), { code })
    }
  }
  return state
}

describe('renameRetrying', () => {
  it('on Windows, retries while another process holds the file (EPERM, EBUSY), then succeeds', async () => {
    const fake = flaky(['EPERM', 'EBUSY', 'EACCES'])
    await renameRetrying('a', 'b', { platform: 'win32', rename: fake.rename, delaysMs: [1, 1, 1, 1] })
    expect(fake.calls).toBe(4)
  })

  it('gives up with the last error when the file stays held', async () => {
    const fake = flaky(['EPERM', 'EPERM', 'EPERM'])
    await expect(renameRetrying('a', 'b', { platform: 'win32', rename: fake.rename, delaysMs: [1, 1] })).rejects.toMatchObject({ code: 'EPERM' })
    expect(fake.calls).toBe(3)
  })

  it('does not retry other errors, nor on Linux and macOS where EPERM is a real permission error', async () => {
    const notFound = flaky(['ENOENT'])
    await expect(renameRetrying('a', 'b', { platform: 'win32', rename: notFound.rename })).rejects.toMatchObject({ code: 'ENOENT' })
    expect(notFound.calls).toBe(1)
    const linux = flaky(['EPERM'])
    await expect(renameRetrying('a', 'b', { platform: 'linux', rename: linux.rename })).rejects.toMatchObject({ code: 'EPERM' })
    expect(linux.calls).toBe(1)
  })
})
