import { promises as fs } from 'node:fs'
import path from 'node:path'
import { RUN_KIND, RunDocumentSchema, summarizeRun, type RunDocument, type RunSummary } from '../../shared/model/run'
import { writeFileAtomic } from '../fs/atomic-file'

/**
 * A run on disk: `<dir>/run.json` (the run document) and `<dir>/raw/` (every step's stdout and
 * stderr exactly as the target sent them). The document is rewritten atomically (temp file,
 * fsync, rename) as the run goes: at most one write at a time, and one more queued behind it
 * holding the newest state, so a crash keeps every job that had ended before the last write began.
 */

export const RUN_FILE = 'run.json'
export const RAW_DIR = 'raw'
const LOCK_FILE = '.lock'

export class RunFolder {
  private writing: Promise<void> | undefined
  private queued = false
  private lastError: unknown

  constructor(
    readonly dir: string,
    private doc: RunDocument
  ) {}

  get run(): RunDocument {
    return this.doc
  }

  /** Creates the folder and writes the first document and a lock naming this process. */
  static async create(dir: string, doc: RunDocument): Promise<RunFolder> {
    await fs.mkdir(path.join(dir, RAW_DIR), { recursive: true })
    const folder = new RunFolder(dir, doc)
    // atomically, so a reader never finds the lock empty and takes the run for a dead one's
    await writeFileAtomic(path.join(dir, LOCK_FILE), String(process.pid))
    await folder.flush()
    return folder
  }

  /** Opens an existing run folder to continue it (resume, retry). */
  static async open(dir: string): Promise<RunFolder> {
    const doc = await readRun(dir)
    await writeFileAtomic(path.join(dir, LOCK_FILE), String(process.pid))
    return new RunFolder(dir, doc)
  }

  /** Changes the document and schedules a write. */
  update(change: (doc: RunDocument) => void): void {
    change(this.doc)
    this.doc.updatedAt = new Date().toISOString()
    void this.schedule()
  }

  /** Writes the newest state now (after any write under way) and waits for it. */
  async flush(): Promise<void> {
    await this.schedule()
    if (this.lastError) {
      const error = this.lastError
      this.lastError = undefined
      throw error
    }
  }

  private schedule(): Promise<void> {
    if (this.writing) {
      // the loop below writes again before it settles, with the state as it is then
      this.queued = true
      return this.writing
    }
    this.writing = (async () => {
      do {
        this.queued = false
        try {
          await writeRunFile(this.dir, this.doc)
        } catch (error) {
          this.lastError = error
        }
      } while (this.queued)
      this.writing = undefined
    })()
    return this.writing
  }

  /** Keeps one raw output; returns its path relative to the run folder. */
  async writeRaw(name: string, data: Buffer): Promise<string> {
    const rel = `${RAW_DIR}/${name}`
    await fs.writeFile(path.join(this.dir, rel), data)
    return rel
  }

  /** Opens a raw output file to be written as the output arrives (created empty). */
  async openRaw(name: string): Promise<RawFile> {
    const rel = `${RAW_DIR}/${name}`
    return RawFile.open(path.join(this.dir, rel), rel)
  }

  /** Ends the run: the last write, and the lock is removed. */
  async close(): Promise<void> {
    await this.flush()
    await fs.rm(path.join(this.dir, LOCK_FILE), { force: true })
  }
}

/**
 * One raw output file written as the output arrives, so that no output is held whole in memory.
 * Writes go one after the other (each `write` resolves once its bytes are in the file);
 * `truncate` starts the file over, for an output that is sent again from its first byte.
 */
export class RawFile {
  private position = 0
  private closed = false

  private constructor(
    private readonly handle: fs.FileHandle,
    /** The file's path relative to the run folder (`raw/<name>`). */
    readonly path: string
  ) {}

  static async open(absolute: string, relative: string): Promise<RawFile> {
    return new RawFile(await fs.open(absolute, 'w'), relative)
  }

  /** Bytes in the file so far. */
  get bytes(): number {
    return this.position
  }

  async write(data: Buffer): Promise<void> {
    let done = 0
    while (done < data.length) {
      const { bytesWritten } = await this.handle.write(data, done, data.length - done, this.position)
      done += bytesWritten
      this.position += bytesWritten
    }
  }

  async truncate(): Promise<void> {
    await this.handle.truncate(0)
    this.position = 0
  }

  /** Closes the file (again is a no-op); returns its path relative to the run folder. */
  async close(): Promise<string> {
    if (!this.closed) {
      this.closed = true
      await this.handle.close()
    }
    return this.path
  }
}

/** Writes `<dir>/run.json` atomically. */
export function writeRunFile(dir: string, doc: RunDocument): Promise<void> {
  return writeFileAtomic(path.join(dir, RUN_FILE), `${JSON.stringify(doc, null, 1)}\n`)
}

export class RunFileError extends Error {
  override readonly name = 'RunFileError'
}

/** Reads and checks a run document. */
export async function readRun(dir: string): Promise<RunDocument> {
  const file = path.join(dir, RUN_FILE)
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    throw new RunFileError(`cannot read ${file}: ${(error as Error).message}`)
  }
  return parseRunDocument(text, file)
}

export function parseRunDocument(text: string, where: string): RunDocument {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new RunFileError(`${where} is not JSON (${(error as Error).message}); it is not a VirtBench run document`)
  }
  if (typeof json !== 'object' || json === null || (json as { kind?: unknown }).kind !== RUN_KIND) {
    throw new RunFileError(`${where} is not a VirtBench run document (its "kind" is not "${RUN_KIND}")`)
  }
  const checked = RunDocumentSchema.safeParse(json)
  if (!checked.success) {
    const first = checked.error.issues[0]
    throw new RunFileError(`${where} is damaged: ${first?.path.join('.') || 'document'}: ${first?.message ?? 'invalid'}`)
  }
  return checked.data
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * A run left "running" by a process that is gone (a crash, a power cut) is interrupted: its
 * completed jobs are kept, jobs that were running are marked failed, and it can be resumed.
 */
export async function markIfInterrupted(dir: string, read: RunDocument): Promise<RunDocument> {
  if (read.status !== 'running') return read
  const lock = await fs.readFile(path.join(dir, LOCK_FILE), 'utf8').catch(() => '')
  const pid = Number(lock.trim())
  if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) return read
  // A run that ended between the two reads wrote its last document before removing its lock:
  // read it again, so a finished run is never overwritten by the stale copy read before.
  const doc = await readRun(dir)
  if (doc.status !== 'running') return doc
  const now = new Date().toISOString()
  doc.status = 'interrupted'
  doc.updatedAt = now
  doc.error = 'VirtBench stopped while this run was going (a crash or a power cut): completed jobs are kept; resume it to run the rest.'
  for (const job of doc.jobs) {
    if (job.status === 'running') {
      job.status = 'failed'
      job.error = 'VirtBench stopped while this job ran; its result was not collected'
      job.endedAt = now
    }
  }
  await writeRunFile(dir, doc)
  return doc
}

/** The runs kept in the app's data folder (`<data>/runs/<id>/`). */
export class RunStore {
  constructor(readonly root: string) {}

  dirOf(id: string): string {
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(id)) throw new RunFileError(`"${id}" is not a run id`)
    return path.join(this.root, id)
  }

  async list(): Promise<{ runs: RunSummary[]; problems: string[] }> {
    const names = await fs.readdir(this.root).catch(() => [] as string[])
    const runs: RunSummary[] = []
    const problems: string[] = []
    for (const name of names) {
      const dir = path.join(this.root, name)
      try {
        const doc = await markIfInterrupted(dir, await readRun(dir))
        runs.push(summarizeRun(doc))
      } catch (error) {
        problems.push((error as Error).message)
      }
    }
    runs.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    return { runs, problems }
  }

  async get(id: string): Promise<RunDocument> {
    const dir = this.dirOf(id)
    return markIfInterrupted(dir, await readRun(dir))
  }

  async remove(id: string): Promise<void> {
    await fs.rm(this.dirOf(id), { recursive: true, force: true })
  }

  /**
   * Gives a run another name: run.json is rewritten atomically with the new name (the plan keeps
   * the name it was run under). The caller makes sure the run is not going meanwhile; a run marked
   * running by a process that is alive (the CLI) is refused.
   */
  async rename(id: string, name: string): Promise<RunDocument> {
    const dir = this.dirOf(id)
    const doc = await markIfInterrupted(dir, await readRun(dir))
    if (doc.status === 'running') throw new RunFileError(`run ${id} is still going in another VirtBench process; rename it when it has ended`)
    const renamed: RunDocument = { ...doc, name, updatedAt: new Date().toISOString() }
    await writeRunFile(dir, renamed)
    return renamed
  }

  /** Whether a run folder with this id holds a run document. */
  async has(id: string): Promise<boolean> {
    try {
      await fs.access(path.join(this.dirOf(id), RUN_FILE))
      return true
    } catch {
      return false
    }
  }

  /** Adds a finished run document (no raw outputs) under its own id; false when that id is taken. */
  async add(doc: RunDocument): Promise<boolean> {
    const dir = this.dirOf(doc.id)
    await fs.mkdir(this.root, { recursive: true })
    try {
      await fs.mkdir(dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw error
    }
    await fs.mkdir(path.join(dir, RAW_DIR))
    await writeRunFile(dir, doc)
    return true
  }
}
