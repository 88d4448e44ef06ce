import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'

/**
 * Write a file so that readers see either the old content or the new, never a torn write: a
 * temp file (mode 0600) is written, fsynced and renamed. `dirMode` applies to folders it creates.
 */
export async function writeFileAtomic(file: string, content: string, options: { dirMode?: number } = {}): Promise<void> {
  const dir = path.dirname(file)
  await fs.mkdir(dir, { recursive: true, ...(options.dirMode !== undefined && { mode: options.dirMode }) })
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await fs.open(temp, 'wx', 0o600)
  try {
    try {
      await handle.writeFile(content, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.rename(temp, file)
  } catch (error) {
    // A full disk or a failed rename leaves the old document as it was, and no temp file behind.
    await fs.rm(temp, { force: true })
    throw error
  }
}
