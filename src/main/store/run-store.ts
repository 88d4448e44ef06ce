import { existsSync, promises as fs } from 'node:fs'
import path from 'node:path'
import { ComparisonPlanSchema, type ComparisonPlan } from '../../shared/model/plan'
import { RUN_KIND, RunDocumentSchema, baselineLabelOf, jobTally, summarizeRun, type Job, type RunDocument, type RunStatus, type RunSummary } from '../../shared/model/run'
import { expandSweep, sweepSteps, type SweepStep } from '../../shared/sweep/expand'
import { deepFreeze, markChecked } from '../../shared/checked-values'
import { writeFileAtomic } from '../fs/atomic-file'

/**
 * A run on disk: `<dir>/run.json` (the run document) and `<dir>/raw/` (every step's stdout and
 * stderr exactly as the target sent them). The document is rewritten atomically (temp file,
 * fsync, rename) as the run goes, at most once a second while it changes (FULL_WRITE_EVERY_MS:
 * a long run's document is megabytes, and rewriting it at every change cost more than the jobs),
 * at most one write at a time. A job that ends is made durable at once, and cheaply: its record
 * is appended to `<dir>/jobs.journal` (one JSON line, fsynced) before the run moves on, and
 * reading the run (readRun) lays the journal's records over run.json's. So a crash keeps every job
 * that had ended; the journal is emptied once run.json holds what it held, and removed at the end.
 */

export const RUN_FILE = 'run.json'
/** A sweep folder's record of its plan and steps (docs/runs.md#a-sweep-on-disk). */
export const SWEEP_FILE = 'sweep.json'
export const RAW_DIR = 'raw'
/** The records of the jobs that ended since run.json was last written, one JSON line each. */
export const JOURNAL_FILE = 'jobs.journal'
const LOCK_FILE = '.lock'
/** While a run goes, run.json is rewritten at most this often; a job's end is in the journal meanwhile. */
export const FULL_WRITE_EVERY_MS = 1000

export class RunFolder {
  private writing: Promise<void> | undefined
  private queued = false
  private lastError: unknown
  private timer: NodeJS.Timeout | undefined
  private lastWriteAt = 0
  /** Appends and truncations of the journal, one after the other. */
  private journal: Promise<void> = Promise.resolve()
  /** Records appended to the journal (asked for) so far, and how many of them run.json held when last written. */
  private appended = 0

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

  /** Opens an existing run folder to continue it (resume, retry); a journal a crash left is folded into run.json first. */
  static async open(dir: string): Promise<RunFolder> {
    const doc = await readRun(dir)
    await writeFileAtomic(path.join(dir, LOCK_FILE), String(process.pid))
    const folder = new RunFolder(dir, doc)
    if (await fs.stat(path.join(dir, JOURNAL_FILE)).then(() => true, () => false)) {
      await folder.flush()
      await fs.rm(path.join(dir, JOURNAL_FILE), { force: true })
    }
    return folder
  }

  /** Changes the document and schedules a write (within FULL_WRITE_EVERY_MS). */
  update(change: (doc: RunDocument) => void): void {
    change(this.doc)
    this.doc.updatedAt = new Date().toISOString()
    this.scheduleSoon()
  }

  /**
   * Changes the document as `update` does, for a job that has ended with this change: its record
   * is in the journal, fsynced, when this resolves (a crash from then on keeps it).
   */
  async endJob(job: Job, change: () => void): Promise<void> {
    this.update(change)
    const line = `${JSON.stringify(job)}\n`
    this.appended++
    const appended = this.journal.then(() => appendDurably(path.join(this.dir, JOURNAL_FILE), line))
    this.journal = appended.catch(() => undefined)
    try {
      await appended
    } catch {
      // the journal cannot be written (a full disk): the document itself, as before it
      await this.flush().catch(() => undefined)
    }
  }

  /** Writes the newest state now (after any write under way) and waits for it. */
  async flush(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    await this.schedule()
    if (this.lastError) {
      const error = this.lastError
      this.lastError = undefined
      throw error
    }
  }

  /** A write at most FULL_WRITE_EVERY_MS after the last one began (one timer for all the changes meanwhile). */
  private scheduleSoon(): void {
    if (this.timer) return
    const wait = Math.max(0, this.lastWriteAt + FULL_WRITE_EVERY_MS - Date.now())
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.schedule()
    }, wait)
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
        this.lastWriteAt = Date.now()
        // the journal's records asked for so far are in the document serialized now
        const held = this.appended
        try {
          await writeRunFile(this.dir, this.doc)
          this.emptyJournalIfHeld(held)
        } catch (error) {
          this.lastError = error
        }
      } while (this.queued)
      this.writing = undefined
    })()
    return this.writing
  }

  /** Empties the journal when run.json now holds every record in it (none was asked for since `held`). */
  private emptyJournalIfHeld(held: number): void {
    this.journal = this.journal.then(async () => {
      if (this.appended !== held) return
      await fs.truncate(path.join(this.dir, JOURNAL_FILE), 0).catch(() => undefined)
    })
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

  /** Ends the run: the last write, the journal and the lock are removed. */
  async close(): Promise<void> {
    await this.flush()
    await this.journal
    await fs.rm(path.join(this.dir, JOURNAL_FILE), { force: true })
    await fs.rm(path.join(this.dir, LOCK_FILE), { force: true })
  }
}

/** Appends `line` to `file` and fsyncs it. */
async function appendDurably(file: string, line: string): Promise<void> {
  const handle = await fs.open(file, 'a', 0o600)
  try {
    await handle.writeFile(line, 'utf8')
    await handle.datasync()
  } finally {
    await handle.close()
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

/** What a run folder holds for its reader: run.json's bytes and its journal's (none when there is no journal). */
interface RunFolderBytes {
  file: string
  text: Buffer
  journal: Buffer
}

const NO_JOURNAL = Buffer.alloc(0)

async function readRunBytes(dir: string): Promise<RunFolderBytes> {
  const file = path.join(dir, RUN_FILE)
  // the journal first: a write of run.json in between only makes the document newer than its records
  const journal = await fs.readFile(path.join(dir, JOURNAL_FILE)).catch(() => NO_JOURNAL)
  let text: Buffer
  try {
    text = await fs.readFile(file)
  } catch (error) {
    throw new RunFileError(`cannot read ${file}: ${(error as Error).message}`)
  }
  return { file, text, journal }
}

function parseRunBytes({ file, text, journal }: RunFolderBytes): RunDocument {
  return parseRunDocument(text.toString('utf8'), file, journal.toString('utf8'))
}

/** Reads and checks a run document, with the records of the jobs that ended since it was written (its journal) laid over it. */
export async function readRun(dir: string): Promise<RunDocument> {
  return parseRunBytes(await readRunBytes(dir))
}

/** How many run folders a RunDocumentCache keeps (the least recently read goes first). */
export const RUN_CACHE_SIZE = 32

/**
 * Run documents as readRun gives them, each kept with the bytes of run.json and of its journal
 * it was checked from: a read that finds the very same bytes again gets that document without
 * parsing and checking it again (runs:get is asked every few seconds while a run is on screen,
 * and checking a 20-variant document took 7 to 15 ms). Any other bytes are parsed and checked in
 * full, as readRun does. Kept by content rather than by mtime, size and inode: an atomic rewrite
 * (temp file and rename) may get the inode just freed, the same size and a time stamp within the
 * file system's granularity (a clock tick; 2 s on FAT), and the document must never be stale. The
 * documents are shared by every reader, so they are frozen (change a copy), and marked as checked
 * against RunDocumentSchema, so dispatch does not check runs:get's answer again.
 */
export class RunDocumentCache {
  private readonly kept = new Map<string, RunFolderBytes & { doc: RunDocument }>()

  constructor(private readonly size = RUN_CACHE_SIZE) {}

  async read(dir: string): Promise<RunDocument> {
    const key = path.resolve(dir)
    const bytes = await readRunBytes(dir)
    const known = this.kept.get(key)
    // a read that fails (a damaged file) keeps nothing: the next read checks the file again
    this.kept.delete(key)
    const doc = known && known.text.equals(bytes.text) && known.journal.equals(bytes.journal) ? known.doc : markChecked(deepFreeze(parseRunBytes(bytes)), RunDocumentSchema)
    this.kept.set(key, { ...bytes, doc })
    if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value!)
    return doc
  }

  private readonly sweeps = new Map<string, { key: unknown[]; doc: RunDocument }>()

  /**
   * A sweep's combined document (SweepFolder.run of a sweep read through this cache), frozen and
   * checked once: kept while the text of sweep.json, the sweep's state and every step's folder,
   * status and document are the same (a step's document is this cache's, so the same object means
   * the same bytes of its run.json and journal).
   */
  sweepRun(dir: string, sweep: SweepFolder): RunDocument {
    const key = path.resolve(dir)
    const parts: unknown[] = [sweep.recordText, sweep.summary.status, sweep.summary.endedAt, ...sweep.steps.flatMap((s) => [s.dir, s.status, s.run])]
    const known = this.sweeps.get(key)
    this.sweeps.delete(key)
    const same = known !== undefined && known.key.length === parts.length && known.key.every((part, i) => part === parts[i])
    const doc = same ? known.doc : markChecked(deepFreeze(sweep.run()), RunDocumentSchema)
    this.sweeps.set(key, { key: parts, doc })
    if (this.sweeps.size > this.size) this.sweeps.delete(this.sweeps.keys().next().value!)
    return doc
  }
}

/**
 * Lays a journal's job records over the jobs of a parsed run.json: a record replaces the job of
 * its id when it is a later attempt, or the same attempt that the document has not seen end. A
 * line cut short by a crash is left out.
 */
function applyJournal(json: { jobs?: unknown }, journal: string): void {
  if (journal === '' || !Array.isArray(json.jobs)) return
  const jobs = json.jobs as Partial<Job>[]
  for (const line of journal.split('\n')) {
    let record: Partial<Job>
    try {
      record = JSON.parse(line) as Partial<Job>
    } catch {
      continue
    }
    if (typeof record !== 'object' || record === null || typeof record.id !== 'string') continue
    const at = jobs.findIndex((j) => j.id === record.id)
    const known = jobs[at]
    if (!known) jobs.push(record)
    else if ((record.attempts ?? 0) > (known.attempts ?? 0) || ((record.attempts ?? 0) === (known.attempts ?? 0) && (known.status === 'running' || known.status === 'queued'))) {
      jobs[at] = record
    }
  }
}

export function parseRunDocument(text: string, where: string, journal = ''): RunDocument {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new RunFileError(`${where} is not JSON (${(error as Error).message}); it is not a VirtBench run document`)
  }
  if (typeof json !== 'object' || json === null || (json as { kind?: unknown }).kind !== RUN_KIND) {
    throw new RunFileError(`${where} is not a VirtBench run document (its "kind" is not "${RUN_KIND}")`)
  }
  applyJournal(json as { jobs?: unknown }, journal)
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
  // run.json now holds what the journal held
  await fs.rm(path.join(dir, JOURNAL_FILE), { force: true })
  return doc
}

/**
 * The runs kept in the app's data folder (`<data>/runs/<id>/`). With `cache`, the documents it
 * reads are the cache's (frozen, shared with its other readers) and an unchanged run folder is
 * not parsed and checked again.
 */
export class RunStore {
  private readonly read: (dir: string) => Promise<RunDocument>
  /** A sweep's combined document (the cache's, when there is one). */
  private readonly sweepRun: (dir: string, sweep: SweepFolder) => RunDocument

  constructor(
    readonly root: string,
    options: { cache?: RunDocumentCache } = {}
  ) {
    const cache = options.cache
    this.read = cache ? (dir) => cache.read(dir) : readRun
    this.sweepRun = cache ? (dir, sweep) => cache.sweepRun(dir, sweep) : (_dir, sweep) => sweep.run()
  }

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
        runs.push(isSweepFolder(dir) ? (await readSweep(dir, this.read)).summary : summarizeRun(await markIfInterrupted(dir, await this.read(dir))))
      } catch (error) {
        problems.push((error as Error).message)
      }
    }
    runs.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    return { runs, problems }
  }

  /** A run's document; a sweep's is its latest step's run, under the sweep's id, name, plan and state. */
  async get(id: string): Promise<RunDocument> {
    const dir = this.dirOf(id)
    if (isSweepFolder(dir)) return this.sweepRun(dir, await readSweep(dir, this.read))
    return markIfInterrupted(dir, await this.read(dir))
  }

  /** The sweep kept under `id`: its record, state and steps (each with its run); undefined when `id` is a run of its own. */
  async sweep(id: string): Promise<SweepFolder | undefined> {
    const dir = this.dirOf(id)
    return isSweepFolder(dir) ? readSweep(dir, this.read) : undefined
  }

  /** Where a run's raw outputs are: its folder, or for a sweep its latest step's (the one runs:get gives). */
  async rawDirOf(id: string): Promise<string> {
    const sweep = await this.sweep(id)
    const latest = sweep?.steps.findLast((s) => s.run)
    return latest ? path.join(this.dirOf(id), latest.dir) : this.dirOf(id)
  }

  async remove(id: string): Promise<void> {
    await fs.rm(this.dirOf(id), { recursive: true, force: true })
  }

  /**
   * Gives a run another name: run.json is rewritten atomically with the new name (the plan keeps
   * the name it was run under). The caller makes sure the run is not going meanwhile; a run marked
   * running by a process that is alive (the CLI) is refused.
   */
  async rename(id: string, name: string): Promise<RunSummary> {
    const dir = this.dirOf(id)
    if (isSweepFolder(dir)) {
      const sweep = await readSweep(dir, this.read)
      if (sweep.summary.status === 'running') throw new RunFileError(`sweep ${id} is still going in another VirtBench process; rename it when it has ended`)
      await writeSweepRecord(dir, { ...sweep.record, name })
      return (await readSweep(dir, this.read)).summary
    }
    const doc = await markIfInterrupted(dir, await this.read(dir))
    if (doc.status === 'running') throw new RunFileError(`run ${id} is still going in another VirtBench process; rename it when it has ended`)
    const renamed: RunDocument = { ...doc, name, updatedAt: new Date().toISOString() }
    await writeRunFile(dir, renamed)
    return summarizeRun(renamed)
  }

  /** Whether a run folder with this id holds a run document. */
  async has(id: string): Promise<boolean> {
    try {
      const dir = this.dirOf(id)
      await fs.access(path.join(dir, isSweepFolder(dir) ? SWEEP_FILE : RUN_FILE))
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

/** One step of a sweep as it ended (sweep.json's `steps`, in order). */
export interface SweepStepResult {
  step: SweepStep
  label: string
  /** The step's run folder, relative to the sweep folder. */
  dir: string
  status: RunStatus
  seconds: number
}

/** What sweep.json holds: the plan, its combinations, and the steps that ended, in order; `name` once renamed. */
export interface SweepRecord {
  kind: 'virtbench.sweep'
  version: 1
  plan: ComparisonPlan
  name?: string
  variants: { label: string; values: Record<string, string | number> }[]
  steps: SweepStepResult[]
  /** When the user stopped the sweep (Ctrl+C, runs:cancel, the app quitting); absent when it ran to its end, failed or its process died. A resume clears it. */
  stoppedAt?: string
}

/** Whether `dir` is a sweep folder (sweep.json and step folders) rather than a run folder. */
export function isSweepFolder(dir: string): boolean {
  return existsSync(path.join(dir, SWEEP_FILE)) && !existsSync(path.join(dir, RUN_FILE))
}

/** Reads a sweep folder's sweep.json (its plan checked as a preset's is). */
export async function readSweepRecord(dir: string): Promise<SweepRecord> {
  return (await readSweepRecordText(dir)).record
}

/** readSweepRecord, with the text of sweep.json it read (a cache's key). */
async function readSweepRecordText(dir: string): Promise<{ record: SweepRecord; text: string }> {
  const file = path.join(dir, SWEEP_FILE)
  let raw: SweepRecord
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
    raw = JSON.parse(text) as SweepRecord
  } catch (error) {
    throw new RunFileError(`cannot read the sweep record ${file}: ${(error as Error).message}`)
  }
  if (raw.kind !== 'virtbench.sweep' || raw.version !== 1) throw new RunFileError(`${file} is not a sweep record VirtBench knows (kind ${String(raw.kind)}, version ${String(raw.version)})`)
  const plan = ComparisonPlanSchema.safeParse(raw.plan)
  if (!plan.success || !plan.data.sweep) throw new RunFileError(`${file} is damaged: its plan is not a sweep's (${plan.error?.issues[0]?.message ?? 'no sweep'})`)
  return { record: { ...raw, plan: plan.data }, text }
}

/** Writes sweep.json atomically. */
export function writeSweepRecord(dir: string, record: SweepRecord): Promise<void> {
  return writeFileAtomic(path.join(dir, SWEEP_FILE), `${JSON.stringify(record, null, 2)}\n`)
}

/** Marks a sweep folder as run by this process (a resumed sweep too); `release` removes the mark. */
export async function lockSweep(dir: string): Promise<{ release: () => Promise<void> }> {
  await writeFileAtomic(path.join(dir, LOCK_FILE), String(process.pid))
  return { release: () => fs.rm(path.join(dir, LOCK_FILE), { force: true }) }
}

/** One step of a sweep folder: ended (from sweep.json) or under way / cut short (a step folder sweep.json does not list yet). */
export interface SweepFolderStep {
  label: string
  dir: string
  status: RunStatus
  seconds?: number
  /** The step's run document; absent when its folder has none (it never started). */
  run?: RunDocument
}

/** A sweep folder as the run store shows it: one run whose steps are the combinations measured. */
export interface SweepFolder {
  record: SweepRecord
  /** The text of sweep.json the record was read from. */
  recordText: string
  /** How many steps the sweep has (combinations, times rounds when interleaved). */
  total: number
  steps: SweepFolderStep[]
  summary: RunSummary
  /** The document runs:get gives: the latest step's run under the sweep's id, name, plan and state. */
  run: () => RunDocument
}

/**
 * The state of a sweep: running while the process that runs it lives (its lock); else completed
 * when every step completed, the status of the step that ended it, cancelled when the user
 * stopped it between steps (its record's stoppedAt), or interrupted (its process died between or
 * during steps: resume it).
 */
export function sweepStatus(total: number, steps: readonly Pick<SweepFolderStep, 'status'>[], lock: string, stoppedAt?: string): RunStatus {
  const pid = Number(lock.trim())
  if (lock !== '' && Number.isInteger(pid) && pid > 0 && processAlive(pid)) return 'running'
  const last = steps.at(-1)
  if (steps.length === total && steps.every((s) => s.status === 'completed')) return 'completed'
  if (last && (last.status === 'failed' || last.status === 'cancelled')) return last.status
  return stoppedAt !== undefined ? 'cancelled' : 'interrupted'
}

/**
 * Reads a sweep folder: its record, each step with its run (a run a crash left running is marked
 * interrupted), its summary; `read` reads a step's run folder (a RunDocumentCache's, say).
 */
export async function readSweep(dir: string, read: (dir: string) => Promise<RunDocument> = readRun): Promise<SweepFolder> {
  const { record, text: recordText } = await readSweepRecordText(dir)
  const sweep = record.plan.sweep!
  const total = sweepSteps(expandSweep(sweep).length, record.plan.repetitions, sweep.order).length
  const recorded = new Set(record.steps.map((s) => s.dir))
  const extra = (await fs.readdir(dir)).filter((name) => /^\d+-/.test(name) && !recorded.has(name) && existsSync(path.join(dir, name, RUN_FILE))).sort()
  const steps: SweepFolderStep[] = []
  for (const s of record.steps) {
    const run = existsSync(path.join(dir, s.dir, RUN_FILE)) ? await read(path.join(dir, s.dir)) : undefined
    steps.push({ label: s.label, dir: s.dir, status: s.status, seconds: s.seconds, ...(run ? { run } : {}) })
  }
  for (const name of extra) {
    const run = await markIfInterrupted(path.join(dir, name), await read(path.join(dir, name)))
    steps.push({ label: run.targets.find((t) => t.role === 'variant')?.label ?? name, dir: name, status: run.status, run })
  }
  const lock = await fs.readFile(path.join(dir, LOCK_FILE), 'utf8').catch(() => '')
  const status = sweepStatus(total, steps, lock, record.stoppedAt)
  const runs = steps.flatMap((s) => (s.run ? [s.run] : []))
  const first = runs[0]
  const latest = runs.at(-1)
  const id = path.basename(dir)
  const name = record.name ?? record.plan.name
  const createdAt = first?.createdAt ?? (await fs.stat(path.join(dir, SWEEP_FILE))).mtime.toISOString()
  const endedAt = status !== 'running' ? latest?.endedAt : undefined
  const summary: RunSummary = {
    id,
    name,
    plan: record.plan.name,
    status,
    createdAt,
    ...(endedAt ? { endedAt } : {}),
    baseline: first ? baselineLabelOf(first) : record.plan.baseline.target,
    variants: record.variants.map((v) => v.label),
    jobs: jobTally(runs.flatMap((r) => r.jobs)),
    sweep: { guest: sweep.target, domain: sweep.domain, steps: total, completed: steps.filter((s) => s.status === 'completed').length, ...(latest && status === 'running' ? { current: steps.at(-1)!.label } : {}) }
  }
  const run = (): RunDocument => {
    if (!latest) throw new RunFileError(`the sweep in ${dir} has no step yet (it stopped before its first): resume it, or remove it`)
    const { endedAt: _stepEnded, ...rest } = latest
    return { ...rest, id, name, plan: record.plan, status, createdAt, ...(endedAt ? { endedAt } : {}) }
  }
  return { record, recordText, total, steps, summary, run }
}

/** The kind of a sweep's archive: sweep.json and every step's run and raw outputs, in one file. */
export const SWEEP_ARCHIVE_KIND = 'virtbench-sweep-archive'

/**
 * Writes the sweep in `dir` as one file, `{ kind, version: 1, sweep: <sweep.json>, steps: { "<step
 * folder>": { run, raw: { "<name>": "<base64>" } } } }`; returns the number of raw files in it.
 */
export async function exportSweep(dir: string, file: string): Promise<{ rawFiles: number }> {
  const sweep = await readSweep(dir)
  const steps: Record<string, { run: RunDocument; raw: Record<string, string> }> = {}
  let rawFiles = 0
  for (const step of sweep.steps) {
    if (!step.run) continue
    const rawDir = path.join(dir, step.dir, RAW_DIR)
    const raw: Record<string, string> = {}
    for (const name of (await fs.readdir(rawDir).catch(() => [] as string[])).sort()) raw[name] = (await fs.readFile(path.join(rawDir, name))).toString('base64')
    rawFiles += Object.keys(raw).length
    steps[step.dir] = { run: step.run, raw }
  }
  await writeFileAtomic(file, JSON.stringify({ kind: SWEEP_ARCHIVE_KIND, version: 1, sweep: sweep.record, steps }))
  return { rawFiles }
}
