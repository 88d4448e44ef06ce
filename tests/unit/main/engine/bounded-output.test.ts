import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BoundedOutput, droppedMarker } from '../../../../src/main/engine/bounded-output'
import { RawFile } from '../../../../src/main/store/run-store'

/** Bytes 0..n-1 as the letters a..z over and over, so any cut shows where it is. */
function letters(from: number, to: number): Buffer {
  return Buffer.from(Array.from({ length: to - from }, (_, i) => 97 + ((from + i) % 26)))
}

describe('BoundedOutput: an output kept with bounded memory, streamed to its raw file', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-bounded-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const open = async (head: number, tail: number) => {
    const file = await RawFile.open(path.join(dir, 'out'), 'raw/out')
    return { output: new BoundedOutput(file, head, tail), read: () => readFileSync(path.join(dir, 'out')) }
  }

  it('keeps a short output whole, in memory and in the file, without a marker', async () => {
    const { output, read } = await open(8, 8)
    await output.write(letters(0, 5))
    await output.write(letters(5, 12))
    const kept = await output.close()
    expect(kept).toEqual({ data: letters(0, 12), bytes: 12, droppedBytes: 0, file: 'raw/out' })
    expect(read()).toEqual(letters(0, 12))
  })

  it('keeps the head and the tail of a long output and says how many bytes between were left out', async () => {
    const { output, read } = await open(10, 6)
    for (let at = 0; at < 1000; at += 7) await output.write(letters(at, Math.min(1000, at + 7)))
    const kept = await output.close()
    const expected = Buffer.concat([letters(0, 10), Buffer.from(droppedMarker(984, 1000, 10, 6)), letters(994, 1000)])
    expect(kept.data).toEqual(expected)
    expect(kept.bytes).toBe(1000)
    expect(kept.droppedBytes).toBe(984)
    expect(read()).toEqual(expected)
    expect(kept.data.toString()).toContain('[VirtBench: 984 bytes of this output were left out here; it had 1000 bytes, of which the first 10 and the last 6 are kept]')
  })

  it('counts the bytes a sender announced but did not send (job.sh sends only the head and tail of a long output)', async () => {
    const { output, read } = await open(4, 4)
    output.announce(200_000_000)
    await output.write(Buffer.from('headtail'))
    const kept = await output.close()
    expect(kept.droppedBytes).toBe(200_000_000 - 8)
    expect(kept.bytes).toBe(200_000_000)
    expect(read().toString()).toBe(`head${droppedMarker(199_999_992, 200_000_000, 4, 4)}tail`)
  })

  it('starts over, file included, when the output is sent again from its first byte', async () => {
    const { output, read } = await open(4, 4)
    await output.write(Buffer.from('first attempt, cut'))
    await output.restart()
    await output.write(Buffer.from('again'))
    const kept = await output.close()
    expect(kept.data.toString()).toBe('again')
    expect(read().toString()).toBe('again')
  })

  it('holds at most the head and the tail in memory however much passes through', async () => {
    const output = new BoundedOutput(undefined, 1024, 1024)
    const chunk = Buffer.alloc(64 * 1024, 120)
    for (let i = 0; i < 200; i++) await output.write(chunk)
    const kept = await output.close()
    expect(kept.bytes).toBe(200 * 64 * 1024)
    expect(kept.data.length).toBe(2048 + Buffer.byteLength(droppedMarker(kept.droppedBytes, kept.bytes, 1024, 1024)))
    expect(kept.file).toBeUndefined()
  })
})
