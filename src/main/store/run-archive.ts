import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import type { RunDocument } from '../../shared/model/run'
import { writeFileAtomic } from '../fs/atomic-file'
import { parseRunDocument, RAW_DIR, readRun, RunFileError, writeRunFile } from './run-store'

/**
 * A run as one file, to hand to a colleague or attach to a ticket: the run document and every raw
 * output (base64), `{ "kind": "virtbench-run-archive", "version": 1, "run": {...}, "raw": {...} }`.
 * Importing checks the document and each file name, and never overwrites a run that is there.
 */

export const ARCHIVE_KIND = 'virtbench-run-archive'
export const ARCHIVE_VERSION = 1
const RAW_NAME = /^[A-Za-z0-9._-]{1,200}$/

const ArchiveSchema = z.strictObject({
  kind: z.literal(ARCHIVE_KIND),
  version: z.literal(ARCHIVE_VERSION),
  run: z.unknown(),
  raw: z.record(z.string(), z.string())
})

/** Writes the run in `runDir` as one archive file; returns the number of raw files in it. */
export async function exportRun(runDir: string, file: string): Promise<{ run: RunDocument; rawFiles: number }> {
  const run = await readRun(runDir)
  const raw: Record<string, string> = {}
  const names = await fs.readdir(path.join(runDir, RAW_DIR)).catch(() => [] as string[])
  for (const name of names.sort()) raw[name] = (await fs.readFile(path.join(runDir, RAW_DIR, name))).toString('base64')
  await writeFileAtomic(file, JSON.stringify({ kind: ARCHIVE_KIND, version: ARCHIVE_VERSION, run, raw }))
  return { run, rawFiles: names.length }
}

/** Unpacks an archive into `<root>/<run id>`; refuses a run id that is already there. */
export async function importRun(file: string, root: string): Promise<RunDocument> {
  let json: unknown
  try {
    json = JSON.parse(await fs.readFile(file, 'utf8'))
  } catch (error) {
    throw new RunFileError(`cannot read the run archive ${file}: ${(error as Error).message}`)
  }
  const archive = ArchiveSchema.safeParse(json)
  if (!archive.success) {
    throw new RunFileError(`${file} is not a VirtBench run archive (expected "kind": "${ARCHIVE_KIND}", "version": ${ARCHIVE_VERSION}, a run and its raw files)`)
  }
  const run = parseRunDocument(JSON.stringify(archive.data.run), `the run in ${file}`)
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(run.id)) throw new RunFileError(`the run in ${file} has an unusable id "${run.id}"`)
  const bad = Object.keys(archive.data.raw).filter((name) => !RAW_NAME.test(name))
  if (bad.length > 0) throw new RunFileError(`${file} holds raw files with unsafe names: ${bad.slice(0, 3).join(', ')}`)
  const dir = path.join(root, run.id)
  try {
    await fs.mkdir(root, { recursive: true })
    await fs.mkdir(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RunFileError(`run ${run.id} (${run.name}) is already here; remove it first to import it again`)
    throw error
  }
  await fs.mkdir(path.join(dir, RAW_DIR))
  for (const [name, data] of Object.entries(archive.data.raw)) await fs.writeFile(path.join(dir, RAW_DIR, name), Buffer.from(data, 'base64'))
  // an imported run is what it was: a run that was going when exported is interrupted here
  const imported: RunDocument = run.status === 'running' ? { ...run, status: 'interrupted' } : run
  await writeRunFile(dir, imported)
  return imported
}
