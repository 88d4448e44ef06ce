/**
 * Byte handling for command output: dropping the shell's preamble up to our marker line, and a
 * sink that counts, forwards and (only when asked) keeps a bounded part of a stream.
 */
import type { CaptureOptions, ExecResult } from './types'

/** How much preamble (rc-file noise before the marker) is held back at most. */
export const MAX_PREAMBLE_BYTES = 64 * 1024

/**
 * Holds back a stream's first bytes until a marker line (`<marker><rest>\n`) is seen, drops
 * everything up to and including that line and hands `<rest>` (and the dropped bytes before the
 * line) to `onMarker`. If the marker does
 * not come within `limit` bytes, or the stream ends first, the held bytes are passed on unchanged.
 */
export class PreambleFilter {
  private held: Buffer[] = []
  private heldBytes = 0
  private done = false
  private readonly marker: Buffer

  constructor(
    marker: string,
    private readonly onMarker: (rest: string, preamble: Buffer) => void = () => undefined,
    private readonly limit = MAX_PREAMBLE_BYTES
  ) {
    this.marker = Buffer.from(marker, 'latin1')
  }

  /** True once the marker was found or the filter gave up looking. */
  get passing(): boolean {
    return this.done
  }

  /** Returns the bytes to pass on (possibly empty). */
  write(chunk: Buffer): Buffer {
    if (this.done) return chunk
    this.held.push(chunk)
    this.heldBytes += chunk.length
    const all = this.held.length === 1 ? chunk : Buffer.concat(this.held, this.heldBytes)
    const at = all.indexOf(this.marker)
    if (at !== -1) {
      const eol = all.indexOf(0x0a, at + this.marker.length)
      if (eol !== -1) {
        this.finish()
        this.onMarker(all.toString('latin1', at + this.marker.length, eol), all.subarray(0, at))
        return all.subarray(eol + 1)
      }
    }
    if (this.heldBytes > this.limit) {
      this.finish()
      return all
    }
    this.held = [all]
    return EMPTY
  }

  /** At the end of the stream: whatever is still held (no marker came). */
  end(): Buffer {
    if (this.done) return EMPTY
    const rest = Buffer.concat(this.held, this.heldBytes)
    this.finish()
    return rest
  }

  private finish(): void {
    this.done = true
    this.held = []
    this.heldBytes = 0
  }
}

const EMPTY = Buffer.alloc(0)

/** Counts a stream, forwards each chunk, keeps at most `capture.maxBytes` (head or tail). */
export class StreamSink {
  bytes = 0
  private kept: Buffer[] = []
  private keptBytes = 0
  private truncated = false

  constructor(
    private readonly forward: ((chunk: Buffer) => void | Promise<void>) | undefined,
    private readonly capture: CaptureOptions | undefined
  ) {
    if (capture && (!Number.isInteger(capture.maxBytes) || capture.maxBytes < 0)) {
      throw new Error(`capture.maxBytes must be a non-negative integer, got ${capture.maxBytes}`)
    }
  }

  /** Handles one chunk; returns the consumer's promise when it asked for back-pressure. */
  push(chunk: Buffer): void | Promise<void> {
    if (chunk.length === 0) return
    this.bytes += chunk.length
    if (this.capture) this.keep(chunk, this.capture)
    return this.forward?.(chunk)
  }

  /** Handles one chunk read from `stream`, pausing the stream until the consumer is ready for more. */
  pushFrom(stream: NodeJS.ReadableStream, chunk: Buffer): void {
    const wait = this.push(chunk)
    if (wait === undefined) return
    stream.pause()
    wait.then(
      () => stream.resume(),
      () => stream.resume()
    )
  }

  /** The kept bytes, when capture was asked for. */
  result(): { data: Buffer; truncated: boolean } | undefined {
    if (!this.capture) return undefined
    return { data: Buffer.concat(this.kept, this.keptBytes), truncated: this.truncated }
  }

  private keep(chunk: Buffer, { maxBytes, keep = 'head' }: CaptureOptions): void {
    if (keep === 'head') {
      const room = maxBytes - this.keptBytes
      if (room <= 0) {
        this.truncated = true
        return
      }
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk
      if (part.length < chunk.length) this.truncated = true
      this.kept.push(Buffer.from(part))
      this.keptBytes += part.length
      return
    }
    const part = chunk.length > maxBytes ? chunk.subarray(chunk.length - maxBytes) : chunk
    if (part.length < chunk.length) this.truncated = true
    if (part.length === 0) return
    this.kept.push(Buffer.from(part))
    this.keptBytes += part.length
    while (this.keptBytes > maxBytes) {
      const first = this.kept[0] as Buffer
      const excess = this.keptBytes - maxBytes
      this.truncated = true
      if (first.length <= excess) {
        this.kept.shift()
        this.keptBytes -= first.length
      } else {
        this.kept[0] = first.subarray(excess)
        this.keptBytes -= excess
      }
    }
  }
}

/** How a command ended, as both session kinds report it. */
export interface CommandEnd {
  exitCode: number | null
  signal: string | null
}

/** The ExecResult of a command: counts and kept bytes from the sinks; no `end` when it never ran. */
export function buildExecResult(
  startedAt: number,
  stdout: StreamSink,
  stderr: StreamSink,
  end: CommandEnd | undefined,
  flags: { timedOut: boolean; cancelled: boolean }
): ExecResult {
  const result: ExecResult = {
    exitCode: end?.exitCode ?? null,
    signal: end?.signal ?? null,
    durationMs: performance.now() - startedAt,
    stdoutBytes: stdout.bytes,
    stderrBytes: stderr.bytes,
    timedOut: flags.timedOut,
    cancelled: flags.cancelled
  }
  const out = stdout.result()
  const err = stderr.result()
  if (out) {
    result.stdout = out.data
    result.stdoutTruncated = out.truncated
  }
  if (err) {
    result.stderr = err.data
    result.stderrTruncated = err.truncated
  }
  return result
}
