import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findBrowser } from '../../../src/main/report/find-browser'
import { startChromiumPrinter } from '../../../src/main/report/chromium-printer'
import { describeRun } from '../../../src/main/tools/describe-run'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { ReportInputSchema } from '../../../src/shared/report'
import { RENDERER_DIR, ROOT } from '../../harness/paths'

/**
 * The printer `virtbench report --pdf` starts before it reads the run: a real Chromium, stopped
 * and its profile removed however the command ends, also when the run could not be read and
 * nothing was printed. The profiles go to a temporary folder of this test's own (TMPDIR), so the
 * browsers it looks for are only its own.
 */

/** The quick loopback run (tests/fixtures/runs), described by today's tools as `virtbench report` does. */
const loopbackRun = () => describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures/runs/loopback-quick/run.json'), 'utf8'))))

/** Processes whose command line names `dir`. */
function processesUsing(dir: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dir))
}

describe('the Chromium printer started early', () => {
  let tmp: string
  const saved = process.env.TMPDIR
  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'vb-printer-'))
    process.env.TMPDIR = tmp
  })
  afterAll(() => {
    process.env.TMPDIR = saved
    rmSync(tmp, { recursive: true, force: true })
  })

  it('stops its browser and removes its profile when closed before it printed (a run that could not be read)', async () => {
    const printer = startChromiumPrinter({ browser: findBrowser(), rendererDir: RENDERER_DIR })
    expect(readdirSync(tmp)).toHaveLength(1)
    await printer.close()
    expect(readdirSync(tmp)).toEqual([])
    expect(processesUsing(tmp)).toEqual([])
    // closing again is harmless
    await printer.close()
  })

  it('prints a run given after the page has loaded, then stops', async () => {
    const printer = startChromiumPrinter({ browser: findBrowser(), rendererDir: RENDERER_DIR })
    try {
      const input = ReportInputSchema.parse({ run: loopbackRun(), options: {}, appVersion: 'test', generatedAt: '2026-11-26T00:00:00.000Z' })
      const { pdf, rendered, timings } = await printer.print(input)
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
      expect(rendered.sections).toContain('summary')
      expect(rendered.charts).toBe(3)
      expect(timings!.print).toBeGreaterThan(0)
    } finally {
      await printer.close()
    }
    expect(readdirSync(tmp)).toEqual([])
    expect(processesUsing(tmp)).toEqual([])
  })
})
