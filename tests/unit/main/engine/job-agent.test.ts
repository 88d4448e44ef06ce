/**
 * MarkedStream (src/main/engine/job-agent.ts) on its own: how the engine splits one answer of
 * `job.sh serve` off its stdout or stderr at the end marker "\nNONCE.<exit code>\n", whatever
 * the chunks the stream comes in.
 */
import { describe, expect, it } from 'vitest'
import { MarkedStream } from '../../../../src/main/engine/job-agent'

const NONCE = 'VBJOB-00112233aabbccdd'

/** A MarkedStream whose sink keeps what it is given; `ended` counts the calls of its end callback. */
function marked(nonce = NONCE, sink?: (chunk: Buffer) => void | Promise<void>) {
  const chunks: Buffer[] = []
  const state = { ended: 0 }
  const stream = new MarkedStream(
    nonce,
    (chunk) => {
      chunks.push(Buffer.from(chunk))
      return sink?.(chunk)
    },
    () => state.ended++
  )
  return { stream, state, passed: () => Buffer.concat(chunks) }
}

/** Writes `chunks` one after another, each awaited. */
async function feed(stream: MarkedStream, chunks: readonly Buffer[]): Promise<void> {
  for (const chunk of chunks) await stream.write(chunk)
}

/** `data` cut at each of `cuts` (increasing offsets). */
function cutAt(data: Buffer, cuts: readonly number[]): Buffer[] {
  const out: Buffer[] = []
  let from = 0
  for (const at of cuts) {
    out.push(data.subarray(from, at))
    from = at
  }
  out.push(data.subarray(from))
  return out
}

/** An answer as job.sh serve sends it on stdout: status line, the job's output, and the marker. */
const STDOUT_CONTENT = Buffer.from(`${NONCE} 3 27 0 1048576 /\nfirst line\n\\ $HOME "q" 'x'\n`)
/** The same on stderr: the job's stderr (no last newline), then the counters line. */
const STDERR_CONTENT = Buffer.from(`warning: no newline\n${NONCE}+cpu 1 2 3;0.5 0.4 0.3 1/99 123;2|cpu 4 5 6;0.5 0.4 0.3 1/99 124;2|0m0.01s 0m0.00s`)

describe('MarkedStream: one answer of the job server, split off its stream at the end marker', () => {
  it('passes every byte before the marker on unchanged and in order, the answer split at any byte', async () => {
    for (const content of [STDOUT_CONTENT, STDERR_CONTENT]) {
      const wire = Buffer.concat([content, Buffer.from(`\n${NONCE}.3\n`)])
      for (let at = 0; at <= wire.length; at++) {
        const { stream, state, passed } = marked()
        await feed(stream, cutAt(wire, [at]))
        expect(passed(), `split at ${at}`).toEqual(content)
        expect(stream.code, `split at ${at}`).toBe(3)
        expect(stream.bytes, `split at ${at}`).toBe(content.length)
        expect(state.ended, `split at ${at}`).toBe(1)
      }
    }
  })

  it('passes the answer on unchanged when it comes one byte at a time', async () => {
    const wire = Buffer.concat([STDOUT_CONTENT, Buffer.from(`\n${NONCE}.0\n`)])
    const { stream, state, passed } = marked()
    await feed(
      stream,
      Array.from({ length: wire.length }, (_, i) => wire.subarray(i, i + 1))
    )
    expect(passed()).toEqual(STDOUT_CONTENT)
    expect(stream.code).toBe(0)
    expect(stream.bytes).toBe(STDOUT_CONTENT.length)
    expect(state.ended).toBe(1)
  })

  it('finds a marker split over three chunks, and has no code until its line has ended', async () => {
    const { stream, state, passed } = marked()
    await stream.write(Buffer.from(`output\n\n${NONCE.slice(0, 7)}`))
    await stream.write(Buffer.from(`${NONCE.slice(7)}.12`))
    expect(stream.code).toBeUndefined()
    expect(state.ended).toBe(0)
    await stream.write(Buffer.from('7\n'))
    expect(stream.code).toBe(127)
    expect(state.ended).toBe(1)
    expect(passed().toString()).toBe('output\n')
  })

  it('keeps content that ends without a newline exactly as it is', async () => {
    const { stream, passed } = marked()
    await feed(stream, [Buffer.from('no newline at the end'), Buffer.from(`\n${NONCE}.0\n`)])
    expect(passed().toString()).toBe('no newline at the end')
    expect(stream.bytes).toBe(21)
  })

  it('passes an empty answer as nothing at all', async () => {
    const { stream, state, passed } = marked()
    await stream.write(Buffer.from(`\n${NONCE}.70\n`))
    expect(passed().length).toBe(0)
    expect(stream.bytes).toBe(0)
    expect(stream.code).toBe(70)
    expect(state.ended).toBe(1)
  })

  it("does not take the status line or the counters line (the nonce followed by ' ' or '+') for the marker", async () => {
    const content = Buffer.from(`${NONCE} 0 3 0\nok\n\n${NONCE} 5\n${NONCE}+cpu 1|cpu 2|\n\n${NONCE}+\n`)
    const { stream, passed } = marked()
    await feed(stream, [content, Buffer.from(`\n${NONCE}.0\n`)])
    expect(passed()).toEqual(content)
    expect(stream.code).toBe(0)
  })

  it("passes another nonce's marker on as content", async () => {
    const other = 'VBJOB-99887766ffeeddcc'
    const content = Buffer.from(`before\n${other}.0\n\n${other}.3\nafter`)
    const { stream, passed } = marked()
    await feed(stream, [content, Buffer.from(`\n${NONCE}.1\n`)])
    expect(passed()).toEqual(content)
    expect(stream.code).toBe(1)
  })

  it('passes on nothing that comes after the marker, in its chunk or later ones', async () => {
    const { stream, state, passed } = marked()
    await stream.write(Buffer.from(`the answer\n${NONCE}.0\nthe next answer's start`))
    await stream.write(Buffer.from(`${NONCE} 0 0 0\n\n${NONCE}.5\n`))
    expect(passed().toString()).toBe('the answer')
    expect(stream.code).toBe(0)
    expect(stream.bytes).toBe(10)
    expect(state.ended).toBe(1)
  })

  it('keeps the order of chunks written without waiting, and gives the sink one chunk at a time when it takes its time', async () => {
    const delays = [30, 1, 20, 0, 10, 5, 0, 15]
    let call = 0
    let pending = 0
    let mostPending = 0
    const { stream, passed } = marked(NONCE, async () => {
      pending++
      mostPending = Math.max(mostPending, pending)
      await new Promise((resolve) => setTimeout(resolve, delays[call++ % delays.length]))
      pending--
    })
    const lines = Array.from({ length: 40 }, (_, i) => Buffer.from(`line ${i}\n`))
    const writes = [...lines, Buffer.from(`\n${NONCE}.`), Buffer.from('0\n')].map((chunk) => stream.write(chunk))
    await Promise.all(writes)
    expect(passed()).toEqual(Buffer.concat(lines))
    expect(stream.code).toBe(0)
    expect(stream.bytes).toBe(Buffer.concat(lines).length)
    // the next chunk went to the sink only once the sink had let the one before it go
    expect(call).toBeGreaterThan(1)
    expect(mostPending).toBe(1)
  })
})
