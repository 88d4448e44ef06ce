import { StringDecoder } from 'node:string_decoder'
import type { Session } from '../ssh/types'

/**
 * The live log of a detached step: `job.sh follow` streams the step's stdout and stderr (tail -f
 * with "==> DIR/stdout <==" headers) while it runs. What it shows is for watching only: the run
 * document keeps the complete output from the job's files, and when the step ends, the part the
 * follow had not shown yet is sent from those files, so the live log ends exactly as they do.
 */

export type LogStream = 'stdout' | 'stderr'

/** Splits tail's output into its two files by the headers tail puts before each switch. */
export class TailDemux {
  private stream: LogStream | undefined
  private carry = ''
  private readonly headers: Record<LogStream, string>

  constructor(dir: string) {
    this.headers = { stdout: `==> ${dir}/stdout <==`, stderr: `==> ${dir}/stderr <==` }
  }

  /** Text of each stream in `chunk`, in order. */
  push(chunk: string): { stream: LogStream; text: string }[] {
    let text = this.carry + chunk
    this.carry = ''
    // a header cut at the chunk's end waits for the rest of its line
    // (with the newline before it, which tail writes as the separator)
    const newline = text.lastIndexOf('\n')
    const lastLine = text.slice(newline + 1)
    if (lastLine.startsWith('==>') || (lastLine !== '' && '==>'.startsWith(lastLine))) {
      const from = newline >= 0 ? newline : 0
      this.carry = text.slice(from)
      text = text.slice(0, from)
    }
    const parts: { stream: LogStream; text: string }[] = []
    const header = /(?:^|\n)?==> (.*)\/(stdout|stderr) <==\n/g
    let at = 0
    for (const m of text.matchAll(header)) {
      if (!this.isOurs(m[0])) continue
      this.emit(parts, text.slice(at, m.index))
      this.stream = m[2] as LogStream
      at = m.index + m[0].length
    }
    this.emit(parts, text.slice(at))
    return parts
  }

  private isOurs(header: string): boolean {
    const line = header.replace(/^\n/, '').replace(/\n$/, '')
    return line === this.headers.stdout || line === this.headers.stderr
  }

  private emit(parts: { stream: LogStream; text: string }[], text: string): void {
    if (text === '' || !this.stream) return
    parts.push({ stream: this.stream, text })
  }
}

export interface LiveLog {
  /** Ends the follow and sends what it had not shown of the step's output as kept. */
  finish(final: { stdout: Buffer; stderr: Buffer }): Promise<void>
}

/** The most a live log shows of each stream: it is for watching; the raw files keep the output. */
export const LIVE_LOG_MAX_BYTES = 1024 * 1024

/** The line a live log ends with when its stream passed LIVE_LOG_MAX_BYTES. */
export function liveLogCutNote(stream: LogStream): string {
  return `\n[VirtBench: the live log of ${stream} stops here, after ${LIVE_LOG_MAX_BYTES} bytes; the run's raw file keeps the output]\n`
}

/** Follows a detached step's output, sending text in batches (every `everyMs`) to `send`, at most LIVE_LOG_MAX_BYTES per stream. */
export function followLog(
  session: Session,
  scripts: string,
  dir: string,
  send: (stream: LogStream, text: string) => void,
  everyMs = 200
): LiveLog {
  const abort = new AbortController()
  const demux = new TailDemux(dir)
  const decoder = new StringDecoder('utf8')
  const pending: Record<LogStream, string> = { stdout: '', stderr: '' }
  /** Bytes of each stream taken for the log (sent or pending), not counting the cut note. */
  const taken: Record<LogStream, number> = { stdout: 0, stderr: 0 }
  const cut: Record<LogStream, boolean> = { stdout: false, stderr: false }
  const take = (stream: LogStream, text: string): void => {
    if (cut[stream] || text === '') return
    const bytes = Buffer.byteLength(text)
    const room = LIVE_LOG_MAX_BYTES - taken[stream]
    if (bytes <= room) {
      pending[stream] += text
      taken[stream] += bytes
      return
    }
    pending[stream] += Buffer.from(text).subarray(0, room).toString('utf8')
    taken[stream] = LIVE_LOG_MAX_BYTES
    endLog(stream)
  }
  const endLog = (stream: LogStream): void => {
    if (cut[stream]) return
    pending[stream] += liveLogCutNote(stream)
    cut[stream] = true
    // nothing more to show: the follow need not carry the rest of a long output
    if (cut.stdout && cut.stderr) abort.abort()
  }
  const flush = (): void => {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (pending[stream] === '') continue
      send(stream, pending[stream])
      pending[stream] = ''
    }
  }
  const timer = setInterval(flush, everyMs)
  timer.unref()
  const following = session
    .exec(
      { argv: ['sh', `${scripts}/linux/job.sh`, 'follow', dir] },
      {
        signal: abort.signal,
        onStdout: (chunk) => {
          for (const part of demux.push(decoder.write(chunk))) take(part.stream, part.text)
        }
      }
    )
    .catch(() => undefined)
  return {
    finish: async (final) => {
      abort.abort()
      await following
      clearInterval(timer)
      for (const stream of ['stdout', 'stderr'] as const) {
        if (cut[stream]) continue
        const rest = final[stream].subarray(Math.min(taken[stream], final[stream].length))
        const room = LIVE_LOG_MAX_BYTES - taken[stream]
        take(stream, rest.subarray(0, room).toString('utf8'))
        if (rest.length > room) endLog(stream)
      }
      flush()
    }
  }
}
