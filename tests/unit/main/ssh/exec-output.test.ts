import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildExecResult, MAX_PREAMBLE_BYTES, PreambleFilter, StreamSink } from '../../../../src/main/ssh/output'

const MARKER = '\x1eVBabc123:'

/** Feeds `data` to a filter in pieces cut at `cuts`, returns what came out and the marker rest. */
function feed(data: Buffer, cuts: number[], limit?: number): { out: Buffer; rest: string | undefined } {
  let rest: string | undefined
  const filter = new PreambleFilter(MARKER, (r) => (rest = r), limit)
  const points = [...new Set(cuts.map((c) => Math.min(c, data.length)))].sort((a, b) => a - b)
  const parts: Buffer[] = []
  let at = 0
  for (const p of [...points, data.length]) {
    parts.push(filter.write(data.subarray(at, p)))
    at = p
  }
  parts.push(filter.end())
  return { out: Buffer.concat(parts), rest }
}

describe('PreambleFilter', () => {
  it('drops everything up to and including the marker line and reports the rest of that line', () => {
    const data = Buffer.from(`Welcome to host!\n\x1b[1mbanner\x1b[0m${MARKER}123:120\nreal output\n`)
    const { out, rest } = feed(data, [])
    expect(out.toString()).toBe('real output\n')
    expect(rest).toBe('123:120')
  })

  it('finds the marker however the stream is cut into chunks (property)', () => {
    const payload = Buffer.from([0xff, 0xfe, 0x00, 0x1e, 0x56, 0x42, 0x0a, 0x80, 0x1b, 0x5b, 0x33, 0x31, 0x6d])
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat(400), { maxLength: 8 }), (noise, cuts) => {
        // noise that itself contains the marker cannot be told apart: keep it out
        const noiseBuf = Buffer.from(noise)
        fc.pre(!noiseBuf.includes(Buffer.from('\x1eVB')))
        const data = Buffer.concat([noiseBuf, Buffer.from(`${MARKER}9:9\n`), payload])
        const { out, rest } = feed(data, cuts)
        expect(out.equals(payload)).toBe(true)
        expect(rest).toBe('9:9')
      })
    )
  })

  it('passes everything on unchanged when no marker comes before the end', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 5 }), (bytes, cuts) => {
        const data = Buffer.from(bytes)
        fc.pre(!data.includes(Buffer.from(MARKER)))
        const { out, rest } = feed(data, cuts)
        expect(out.equals(data)).toBe(true)
        expect(rest).toBeUndefined()
      })
    )
  })

  it('gives up after the preamble limit and passes the held bytes on', () => {
    const data = Buffer.alloc(MAX_PREAMBLE_BYTES + 10, 0x41)
    const filter = new PreambleFilter(MARKER)
    expect(filter.write(data.subarray(0, 1000)).length).toBe(0)
    const out = filter.write(data.subarray(1000))
    expect(out.length).toBe(data.length)
    expect(filter.passing).toBe(true)
    // a marker after that is ordinary output
    const later = Buffer.from(`${MARKER}1:1\n`)
    expect(filter.write(later).equals(later)).toBe(true)
  })

  it('waits for the end of the marker line', () => {
    const filter = new PreambleFilter(MARKER)
    expect(filter.write(Buffer.from(`${MARKER}12`)).length).toBe(0)
    expect(filter.passing).toBe(false)
    expect(filter.write(Buffer.from('3:4\nx')).toString()).toBe('x')
    expect(filter.passing).toBe(true)
  })
})

describe('StreamSink', () => {
  it('counts and forwards every chunk without keeping anything by default', () => {
    const seen: Buffer[] = []
    const sink = new StreamSink((c) => void seen.push(c), undefined)
    sink.push(Buffer.from('ab'))
    sink.push(Buffer.alloc(0))
    sink.push(Buffer.from('cde'))
    expect(sink.bytes).toBe(5)
    expect(Buffer.concat(seen).toString()).toBe('abcde')
    expect(sink.result()).toBeUndefined()
  })

  it('keeps the head or the tail, up to maxBytes, and says when it cut (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 50 }), { maxLength: 10 }),
        fc.nat(120),
        fc.constantFrom('head' as const, 'tail' as const),
        (chunks, maxBytes, keep) => {
          const sink = new StreamSink(undefined, { maxBytes, keep })
          for (const c of chunks) sink.push(Buffer.from(c))
          const all = Buffer.concat(chunks.map((c) => Buffer.from(c)))
          const expected = keep === 'head' ? all.subarray(0, maxBytes) : all.subarray(Math.max(0, all.length - maxBytes))
          const result = sink.result()
          expect(result?.data.equals(expected)).toBe(true)
          expect(result?.truncated).toBe(all.length > maxBytes)
          expect(sink.bytes).toBe(all.length)
        }
      )
    )
  })

  it('copies kept bytes, so a producer reusing its buffer cannot change them', () => {
    const sink = new StreamSink(undefined, { maxBytes: 10 })
    const buf = Buffer.from('hello')
    sink.push(buf)
    buf.fill(0)
    expect(sink.result()?.data.toString()).toBe('hello')
  })

  it('returns the consumer promise (back-pressure) and refuses a bad maxBytes', async () => {
    let resolved = false
    const sink = new StreamSink(() => new Promise<void>((r) => setTimeout(() => ((resolved = true), r()), 5)), undefined)
    const wait = sink.push(Buffer.from('x'))
    expect(wait).toBeInstanceOf(Promise)
    await wait
    expect(resolved).toBe(true)
    expect(() => new StreamSink(undefined, { maxBytes: -1 })).toThrow(/maxBytes/)
    expect(() => new StreamSink(undefined, { maxBytes: 1.5 })).toThrow(/maxBytes/)
  })
})

describe('buildExecResult', () => {
  it('reports exit, counts and kept output', () => {
    const out = new StreamSink(undefined, { maxBytes: 2 })
    const err = new StreamSink(undefined, undefined)
    out.push(Buffer.from('abc'))
    err.push(Buffer.from('e'))
    const r = buildExecResult(performance.now() - 5, out, err, { exitCode: 3, signal: null }, { timedOut: false, cancelled: false })
    expect(r).toMatchObject({ exitCode: 3, signal: null, stdoutBytes: 3, stderrBytes: 1, timedOut: false, cancelled: false, stdoutTruncated: true })
    expect(r.stdout?.toString()).toBe('ab')
    expect(r.stderr).toBeUndefined()
    expect(r.durationMs).toBeGreaterThanOrEqual(5)
  })

  it('has no exit code or signal for a command that never ran', () => {
    const r = buildExecResult(performance.now(), new StreamSink(undefined, undefined), new StreamSink(undefined, undefined), undefined, {
      timedOut: false,
      cancelled: true
    })
    expect(r).toMatchObject({ exitCode: null, signal: null, cancelled: true, stdoutBytes: 0 })
  })
})
