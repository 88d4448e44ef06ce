import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'

/**
 * Write a file so that readers see either the old content or the new, never a torn write: a
 * temp file (mode 0600 unless `fileMode` says otherwise) is written, fsynced and renamed.
 * `dirMode` applies to folders it creates.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array, options: { dirMode?: number; fileMode?: number } = {}): Promise<void> {
  const dir = path.dirname(file)
  await fs.mkdir(dir, { recursive: true, ...(options.dirMode !== undefined && { mode: options.dirMode }) })
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await fs.open(temp, 'wx', options.fileMode ?? 0o600)
  try {
    try {
      await (typeof content === 'string' ? handle.writeFile(content, 'utf8') : handle.writeFile(content))
      await handle.sync()
    } finally {
      await handle.close()
    }
    await renameRetrying(temp, file)
  } catch (error) {
    // A full disk or a failed rename leaves the old document as it was, and no temp file behind.
    await fs.rm(temp, { force: true })
    throw error
  }
}

/** Error codes Windows gives a rename while another process (an indexer, a virus scanner) holds the file. */
const TRANSIENT_RENAME_CODES = new Set(['EPERM', 'EBUSY', 'EACCES'])

/**
 * Renames `from` to `to`; on Windows retries for about two seconds while the target is briefly
 * held open by another process (EPERM, EBUSY, EACCES), as virus scanners and indexers do.
 */
export async function renameRetrying(
  from: string,
  to: string,
  options: { platform?: NodeJS.Platform; rename?: (a: string, b: string) => Promise<void>; delaysMs?: readonly number[] } = {}
): Promise<void> {
  const rename = options.rename ?? fs.rename
  const delays = (options.platform ?? process.platform) === 'win32' ? (options.delaysMs ?? [10, 20, 50, 100, 200, 400, 600, 800]) : []
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(from, to)
      return
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? ''
      const delay = delays[attempt]
      if (delay === undefined || !TRANSIENT_RENAME_CODES.has(code)) throw error
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
}
