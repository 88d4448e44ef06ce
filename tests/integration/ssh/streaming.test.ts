import { createHash, randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { SshSession } from '../../../src/main/ssh/session'
import { connectAs, createThrowawayUser, type ThrowawayUser } from './session-helpers'

const BIG = 200_000_000
const MiB = 1024 * 1024

/** sha256 of `n` zero bytes, computed here in 1 MiB steps. */
function zerosSha256(n: number): string {
  const h = createHash('sha256')
  const block = Buffer.alloc(MiB)
  for (let left = n; left > 0; left -= MiB) h.update(left >= MiB ? block : block.subarray(0, left))
  return h.digest('hex')
}

/** Samples this process's memory while `work` runs; returns the largest growth over the start. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ value: T; rss: number; live: number }> {
  // `external` already includes `arrayBuffers` (Buffers)
  const live = (): number => {
    const m = process.memoryUsage()
    return m.heapUsed + m.external
  }
  const rss0 = process.memoryUsage.rss()
  const live0 = live()
  let rss = 0
  let liveMax = 0
  const sample = (): void => {
    rss = Math.max(rss, process.memoryUsage.rss() - rss0)
    liveMax = Math.max(liveMax, live() - live0)
  }
  const timer = setInterval(sample, 20)
  try {
    const value = await work()
    sample()
    return { value, rss, live: liveMax }
  } finally {
    clearInterval(timer)
  }
}

describe('streaming output from a real sshd', () => {
  let server: SshdServer
  let user: ThrowawayUser
  let session: SshSession
  let scratch: string

  beforeAll(async () => {
    user = createThrowawayUser()
    server = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(server)
    session = new SshSession({ label: 'stream-target', connect: connectAs(server, user) })
    scratch = mkdtempSync(path.join(os.tmpdir(), 'virtbench-stream-'))
    chmodSync(scratch, 0o755)
    await session.exec('true')
  })
  afterAll(async () => {
    await session?.close()
    await server?.stop()
    user?.remove()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('streams 200 MB of stdout with exact byte count and content, in bounded memory', async () => {
    const hash = createHash('sha256')
    let seen = 0
    const t0 = performance.now()
    const { value: r, rss, live } = await peakGrowth(() =>
      session.exec(
        { argv: ['head', '-c', String(BIG), '/dev/zero'] },
        {
          onStdout: (chunk) => {
            seen += chunk.length
            hash.update(chunk)
          }
        }
      )
    )
    const seconds = (performance.now() - t0) / 1000
    expect(r.exitCode).toBe(0)
    expect(r.stdoutBytes).toBe(BIG)
    expect(seen).toBe(BIG)
    expect(r.stderrBytes).toBe(0)
    expect(hash.digest('hex')).toBe(zerosSha256(BIG))
    // nothing is kept: the process grows by far less than the output
    expect(rss).toBeLessThan(64 * MiB)
    expect(live).toBeLessThan(64 * MiB)
    console.info(`200 MB in ${seconds.toFixed(2)} s (${(BIG / MiB / seconds).toFixed(0)} MiB/s); growth rss ${(rss / MiB).toFixed(1)} MiB, heap+external ${(live / MiB).toFixed(1)} MiB`)
  })

  it('drains a flood on stderr while stdout stays small (no stall)', async () => {
    const r = await session.exec({ script: 'head -c 30000000 /dev/zero >&2; echo end' }, { capture: { maxBytes: 100 }, timeoutMs: 30_000 })
    expect(r.timedOut).toBe(false)
    expect(r.stderrBytes).toBe(30_000_000)
    expect(r.stdout?.toString()).toBe('end\n')
    expect(r.stderrTruncated).toBe(true)
  })

  it('returns random binary data byte for byte, however it is chunked', async () => {
    const data = randomBytes(3 * MiB + 17)
    const file = path.join(scratch, 'random.bin')
    writeFileSync(file, data, { mode: 0o644 })
    const chunks: Buffer[] = []
    const r = await session.exec({ argv: ['cat', file] }, { onStdout: (c) => void chunks.push(c) })
    expect(chunks.length).toBeGreaterThan(1)
    expect(Buffer.concat(chunks).equals(data)).toBe(true)
    expect(r.stdoutBytes).toBe(data.length)
  })

  it('pauses the remote command while the consumer is busy (promise back-pressure), losing nothing', async () => {
    let seen = 0
    let busy = false
    let overlapped = false
    const r = await session.exec(
      { argv: ['head', '-c', String(8 * MiB), '/dev/zero'] },
      {
        onStdout: async (chunk) => {
          if (busy) overlapped = true
          busy = true
          seen += chunk.length
          await new Promise((res) => setImmediate(res))
          busy = false
        }
      }
    )
    expect(r.stdoutBytes).toBe(8 * MiB)
    expect(seen).toBe(8 * MiB)
    expect(overlapped).toBe(false)
  })

  it('keeps the stdout and stderr of interleaved writes apart, each in order', async () => {
    const script = 'i=0; while [ $i -lt 2000 ]; do echo "o$i"; echo "e$i" >&2; i=$((i+1)); done'
    const r = await session.exec({ script }, { capture: { maxBytes: 1 << 20 } })
    const expectOut = Array.from({ length: 2000 }, (_, i) => `o${i}\n`).join('')
    const expectErr = Array.from({ length: 2000 }, (_, i) => `e${i}\n`).join('')
    expect(r.stdout?.toString()).toBe(expectOut)
    expect(r.stderr?.toString()).toBe(expectErr)
  })
})
