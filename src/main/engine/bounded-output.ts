import type { RawFile } from '../store/run-store'

/**
 * A step's output kept with bounded memory, whatever its size: its first `headBytes` go to the
 * raw file as they arrive, its last `tailBytes` are held until the end; whatever lies between is
 * counted and left out, and a marker line in its place says how many bytes that was. The raw file
 * and the kept bytes are the same, so parsing the raw file again gives the same samples.
 */

/** One stream of output as it arrives; started over when the sender sends it again from its first byte. */
export interface OutputSink {
  write(chunk: Buffer): void | Promise<void>
  restart(): void | Promise<void>
}

export interface KeptOutput {
  /** All of the output, or its head, the marker line and its tail. */
  data: Buffer
  /** Bytes of the whole output. */
  bytes: number
  /** Bytes left out in the middle (0 when all of it was kept). */
  droppedBytes: number
  /** The raw file, relative to the run folder, when there is one. */
  file?: string
}

/** The line that stands where the middle of an output was left out. */
export function droppedMarker(dropped: number, total: number, head: number, tail: number): string {
  return `\n[VirtBench: ${dropped} bytes of this output were left out here; it had ${total} bytes, of which the first ${head} and the last ${tail} are kept]\n`
}

export class BoundedOutput implements OutputSink {
  private head: Buffer[] = []
  private headLength = 0
  private tail: Buffer[] = []
  private tailLength = 0
  private received = 0
  private droppedFromTail = 0
  private announced = 0
  private closed: KeptOutput | undefined

  constructor(
    private readonly file: RawFile | undefined,
    readonly headBytes: number,
    readonly tailBytes: number
  ) {
    if (!Number.isInteger(headBytes) || headBytes < 0 || !Number.isInteger(tailBytes) || tailBytes < 0) {
      throw new Error(`head and tail sizes must be whole numbers of bytes, not ${headBytes} and ${tailBytes}`)
    }
  }

  /**
   * The size of the whole output, when its sender sends only its head and tail (job.sh does so
   * for a long output): the bytes it did not send count as left out.
   */
  announce(totalBytes: number): void {
    this.announced = totalBytes
  }

  write(chunk: Buffer): void | Promise<void> {
    if (chunk.length === 0) return
    this.received += chunk.length
    const room = this.headBytes - this.headLength
    const toHead = room > 0 ? Buffer.from(chunk.subarray(0, room)) : undefined
    if (toHead) {
      this.head.push(toHead)
      this.headLength += toHead.length
    }
    const rest = toHead ? chunk.subarray(toHead.length) : chunk
    if (rest.length > 0) this.keepTail(rest)
    return toHead && this.file ? this.file.write(toHead) : undefined
  }

  async restart(): Promise<void> {
    this.head = []
    this.headLength = 0
    this.tail = []
    this.tailLength = 0
    this.received = 0
    this.droppedFromTail = 0
    this.announced = 0
    await this.file?.truncate()
  }

  /** Ends the output: the marker (when bytes were left out) and the tail go to the raw file, which is closed. */
  async close(): Promise<KeptOutput> {
    if (this.closed) return this.closed
    const unsent = Math.max(0, this.announced - this.received)
    const dropped = this.droppedFromTail + unsent
    const bytes = this.received + unsent
    const marker = dropped > 0 ? Buffer.from(droppedMarker(dropped, bytes, this.headLength, this.tailLength)) : Buffer.alloc(0)
    const end = Buffer.concat([marker, ...this.tail])
    if (this.file) {
      await this.file.write(end)
      await this.file.close()
    }
    this.closed = {
      data: Buffer.concat([...this.head, end]),
      bytes,
      droppedBytes: dropped,
      ...(this.file ? { file: this.file.path } : {})
    }
    this.head = []
    this.tail = []
    return this.closed
  }

  private keepTail(chunk: Buffer): void {
    if (this.tailBytes === 0) {
      this.droppedFromTail += chunk.length
      return
    }
    const part = chunk.length > this.tailBytes ? chunk.subarray(chunk.length - this.tailBytes) : chunk
    this.droppedFromTail += chunk.length - part.length
    this.tail.push(Buffer.from(part))
    this.tailLength += part.length
    while (this.tailLength > this.tailBytes) {
      const first = this.tail[0]!
      const excess = this.tailLength - this.tailBytes
      if (first.length <= excess) {
        this.tail.shift()
        this.tailLength -= first.length
        this.droppedFromTail += first.length
      } else {
        this.tail[0] = first.subarray(excess)
        this.tailLength -= excess
        this.droppedFromTail += excess
      }
    }
  }
}
