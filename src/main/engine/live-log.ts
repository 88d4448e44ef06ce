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
  /** Ends the follow and sends what it had not shown of the step's complete output. */
  finish(final: { stdout: Buffer; stderr: Buffer }): Promise<void>
}

/** Follows a detached step's output, sending text in batches (every `everyMs`) to `send`. */
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
  const sentBytes: Record<LogStream, number> = { stdout: 0, stderr: 0 }
  const flush = (): void => {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (pending[stream] === '') continue
      sentBytes[stream] += Buffer.byteLength(pending[stream])
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
          for (const part of demux.push(decoder.write(chunk))) pending[part.stream] += part.text
        }
      }
    )
    .catch(() => undefined)
  return {
    finish: async (final) => {
      abort.abort()
      await following
      clearInterval(timer)
      flush()
      for (const stream of ['stdout', 'stderr'] as const) {
        const rest = final[stream].subarray(Math.min(sentBytes[stream], final[stream].length))
        if (rest.length > 0) send(stream, rest.toString('utf8'))
      }
    }
  }
}
