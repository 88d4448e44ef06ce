/**
 * A job that prints 200 MB. Before, the engine kept the first 64 MiB of the wait's output, which
 * cut off the status at its end, and started the wait again and again, forever. Now job.sh puts
 * the status first and sends only the output's first and last 2 MiB; the engine streams them to
 * the raw file with a line saying how much was left out between; the app's live log shows its
 * first MiB and says where the rest is.
 */
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { droppedMarker } from '../../../src/main/engine/bounded-output'
import { DEFAULT_KEEP_BYTES } from '../../../src/main/engine/detached'
import { LIVE_LOG_MAX_BYTES, liveLogCutNote } from '../../../src/main/engine/live-log'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { printingTool, PRINTED_LINE } from '../../harness/printing-tool'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { expectDocumentAndRawOutputs, expectEndedWithin, expectNothingLeft, scratchDir, startFaultRun } from './fault-kit'

const BYTES = 200_000_000
const LIMIT_SECONDS = 60

describe('a job that prints 200 MB', () => {
  let server: SshdServer
  let scratch: ReturnType<typeof scratchDir>
  beforeAll(async () => {
    server = await startSshd()
    scratch = scratchDir()
  })
  afterAll(async () => {
    await server?.stop()
    scratch?.remove()
  })

  it('ends, with the head and the tail of the output kept and the bytes left out between them counted', async () => {
    const plan = ComparisonPlanSchema.parse({
      name: 'chatty',
      baseline: { target: 'a' },
      variants: [{ target: 'b' }],
      storage: { kind: 'directory', path: path.join(scratch.dir, 'work') },
      repetitions: 1,
      tests: [{ id: 'print', tool: 'dd', params: {} }]
    })
    const runDir = path.join(scratch.dir, 'run')
    const run = await startFaultRun(
      plan,
      [
        { name: 'a', role: 'baseline', server },
        { name: 'b', role: 'variant', server }
      ],
      runDir,
      { tools: { dd: printingTool(BYTES, LIMIT_SECONDS) }, liveLog: true }
    )
    const { status } = await expectEndedWithin(run, LIMIT_SECONDS)
    expect(status).toBe('completed')

    const doc = await expectDocumentAndRawOutputs(runDir)
    const half = DEFAULT_KEEP_BYTES / 2
    const marker = droppedMarker(BYTES - 2 * half, BYTES, half, half)
    for (const job of doc.jobs) {
      const file = path.join(runDir, job.steps[0]!.stdoutFile!)
      expect(statSync(file).size).toBe(2 * half + Buffer.byteLength(marker))
      const kept = readFileSync(file, 'latin1')
      // the head is the output's first bytes, the tail its last: `yes` lines, cut where the halves end
      expect(kept.slice(0, PRINTED_LINE.length)).toBe(PRINTED_LINE)
      expect(kept.slice(half, half + marker.length)).toBe(marker)
      const lastLineStart = BYTES - (BYTES % PRINTED_LINE.length)
      expect(kept.slice(-(BYTES - lastLineStart))).toBe(PRINTED_LINE.slice(0, BYTES - lastLineStart))
      // the parser was given exactly what the raw file keeps
      expect(job.samples.find((s) => s.metric === 'print.parsed_bytes')!.value).toBe(statSync(file).size)
      expect(job.warnings).toEqual([`step print printed ${BYTES} bytes on stdout: ${BYTES - 2 * half} bytes in the middle were left out, its first and last ones are in ${job.steps[0]!.stdoutFile}`])
      // the app's live log showed the first MiB, then said where the rest is
      const live = run.events.flatMap((e) => (e.type === 'job-log' && e.jobId === job.id && e.stream === 'stdout' ? [e.text] : [])).join('')
      expect(live).toBe(kept.slice(0, LIVE_LOG_MAX_BYTES) + liveLogCutNote('stdout'))
    }
    await expectNothingLeft(`vb-${doc.id}`)
  })
})
