/**
 * The live log of a run: `job-log` chunks split into lines as they arrive, without ever
 * re-splitting what came before. A chunk may end mid-line; that part waits, per job and stream,
 * for the rest of its line. Only the newest `cap` lines are kept, so a chatty run cannot eat the
 * renderer's memory; the view is told how many were dropped.
 */

export type LogStream = 'stdout' | 'stderr' | 'event'

export interface LogSource {
  readonly jobId: string
  readonly stream: LogStream
}

/** What a virtualized view needs: a length and random access. */
export interface LogLines {
  /** Lines held now (at most the cap). */
  readonly length: number
  /** Lines dropped from the front so far to stay under the cap. */
  readonly dropped: number
  text(index: number): string
  source(index: number): LogSource
}

/** The newest lines kept per run (about 20 MB of text at 100 characters a line). */
export const LOG_LINE_CAP = 200_000
/** Longer lines are cut (with an ellipsis); the whole output stays in the job's raw files. */
export const LOG_LINE_CHARS = 2_000

export class LogBuffer implements LogLines {
  private texts: string[] = []
  private sources: number[] = []
  /** Index of the first kept line in `texts` (the arrays are compacted now and then, not per line). */
  private head = 0
  private droppedLines = 0
  private readonly sourceList: LogSource[] = []
  private readonly sourceIds = new Map<string, number>()
  /** The unfinished last line of each source. */
  private readonly partial = new Map<number, string>()

  constructor(private readonly cap = LOG_LINE_CAP) {}

  get length(): number {
    return this.texts.length - this.head
  }

  get dropped(): number {
    return this.droppedLines
  }

  text(index: number): string {
    return this.texts[this.head + index] ?? ''
  }

  source(index: number): LogSource {
    return this.sourceList[this.sources[this.head + index] ?? -1] ?? { jobId: '', stream: 'event' }
  }

  /** Adds a chunk of a job's output (any size, any split). */
  append(jobId: string, stream: 'stdout' | 'stderr', chunk: string): void {
    if (chunk === '') return
    const source = this.sourceOf(jobId, stream)
    let carry = this.partial.get(source) ?? ''
    let start = 0
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      this.push(source, carry + chunk.slice(start, newline))
      carry = ''
      start = newline + 1
    }
    const rest = bounded(carry + chunk.slice(start))
    if (rest === '') this.partial.delete(source)
    else this.partial.set(source, rest)
    this.trim()
  }

  /** A line of VirtBench's own (a job started, failed...), between the jobs' output. */
  note(jobId: string, text: string): void {
    this.push(this.sourceOf(jobId, 'event'), text)
    this.trim()
  }

  /** Ends the unfinished lines of a job (it finished; no more output will come). */
  flush(jobId: string): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = this.sourceIds.get(`${stream}\u0000${jobId}`)
      if (source === undefined) continue
      const rest = this.partial.get(source)
      if (rest !== undefined) {
        this.partial.delete(source)
        this.push(source, rest)
      }
    }
    this.trim()
  }

  private sourceOf(jobId: string, stream: LogStream): number {
    const key = `${stream}\u0000${jobId}`
    let id = this.sourceIds.get(key)
    if (id === undefined) {
      id = this.sourceList.length
      this.sourceList.push({ jobId, stream })
      this.sourceIds.set(key, id)
    }
    return id
  }

  private push(source: number, raw: string): void {
    this.texts.push(lineText(raw))
    this.sources.push(source)
  }

  private trim(): void {
    const excess = this.length - this.cap
    if (excess > 0) {
      this.head += excess
      this.droppedLines += excess
    }
    // Compact once a quarter of the arrays is dead: amortized O(1) per line.
    if (this.head > this.cap / 4) {
      this.texts = this.texts.slice(this.head)
      this.sources = this.sources.slice(this.head)
      this.head = 0
    }
  }
}

/** A line as a terminal shows it: CRLF ends the line, a lone CR starts it over (progress meters). */
export function lineText(raw: string): string {
  let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
  const cr = text.lastIndexOf('\r')
  if (cr >= 0) text = text.slice(cr + 1)
  return text.length > LOG_LINE_CHARS ? `${text.slice(0, LOG_LINE_CHARS)} …` : text
}

/** An unfinished line that keeps growing (a progress meter, no newline) must not grow forever. */
function bounded(rest: string): string {
  if (rest.length <= LOG_LINE_CHARS * 4) return rest
  // Keep what a terminal would show: the text after the last CR (but not a CR that may be half a CRLF).
  const body = rest.endsWith('\r') ? rest.slice(0, -1) : rest
  const cr = body.lastIndexOf('\r')
  const shown = cr >= 0 ? body.slice(cr + 1) : body
  return shown.slice(0, LOG_LINE_CHARS + 1) + (rest.endsWith('\r') ? '\r' : '')
}
