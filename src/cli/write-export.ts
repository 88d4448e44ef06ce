import path from 'node:path'
import { writeFileAtomic } from '../main/fs/atomic-file'
import type { CliIo } from './io'

/** An export for a pipeline, written atomically, readable as any file the user writes; its place said on stderr. */
export async function writeExport(file: string, text: string, what: string, io: Pick<CliIo, 'stderr'>): Promise<void> {
  const target = path.resolve(file)
  await writeFileAtomic(target, text, { fileMode: 0o666 })
  io.stderr(`${what}: ${target}\n`)
}
