import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syntheticRun, VARIANTS } from '../../../bench/ui-fixtures'
import { ROOT } from '../../harness/paths'
import { runCli } from '../../harness/cli'

/**
 * The PDF report's length and shape, printed as `virtbench report --pdf` prints it (the built
 * report page in the system's Chromium) and read back with poppler: the page budget of issue 18
 * (a run of 2 targets x 6 quick tests in at most 8 A4 pages; a report that grows with its content,
 * not with boilerplate), advice said once, no near-empty page, no chart with nothing to draw.
 */

const cli = runCli

const pageCount = (pdf: string): number => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1])
const pageText = (pdf: string, page?: number): string =>
  execFileSync('pdftotext', ['-layout', ...(page !== undefined ? ['-f', String(page), '-l', String(page)] : []), pdf, '-'], { encoding: 'utf8' })
/** Lines with text on each page, the running footer left out. */
function linesPerPage(pdf: string, pages: number): number[] {
  return Array.from({ length: pages }, (_, i) => pageText(pdf, i + 1).split('\n').filter((l) => l.trim() !== '' && !/Page \d+ of \d+/.test(l)).length)
}
const count = (text: string, what: string): number => text.split(what).length - 1

const LOOPBACK = path.join(ROOT, 'tests/fixtures/runs/loopback-quick')

describe('the PDF report’s pages', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-report-pages-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('prints 2 targets x 6 quick tests in at most 8 pages: the answer first, each piece of advice once, no empty chart, no near-empty page', async () => {
    const pdf = path.join(dir, 'loopback.pdf')
    const result = await cli(['report', LOOPBACK, '--pdf', pdf])
    expect(result.status, result.stderr).toBe(0)
    const pages = pageCount(pdf)
    expect(pages).toBeLessThanOrEqual(8)
    // one relative chart per category (storage, network, memory): nothing else has two points worth drawing
    expect(result.stdout).toMatch(/, 3 charts, /)

    // the first page answers: the verdicts per category, and the primary figures with the host's and the guest's values
    const first = pageText(pdf, 1)
    expect(first).toMatch(/Verdicts on the primary figures, against host/)
    expect(first).toMatch(/guest \(cache=none\)\s+3 can't tell\s+2 can't tell\s+3 can't tell\s+8 can't tell/)
    expect(first).toMatch(/4 KiB random read fio\.read\.iops\s+21\.2k op\/s\s+21\.8k op\/s\s+103 %/)

    const text = pageText(pdf)
    expect(count(text, 'Make sure the targets are idle')).toBe(1)
    // the relative charts' "how to read" is the summary's, said once
    expect(count(text, 'Whiskers are the 95 % confidence interval')).toBe(0)
    expect(count(text.replace(/\s+/g, ' '), 'whose whiskers are the interval')).toBe(1)
    // mbw's warning about its timer, with other figures on each of 12 jobs, is said once per copy method
    expect(count(text.replace(/\s+/g, ' '), 'use a larger array (sizeMiB)')).toBe(3)
    // every part, in order
    let at = 0
    for (const heading of ['Summary', 'Flags', 'Storage', 'Network', 'Memory', 'Environment', 'Method', 'Commands run on each target', 'Raw output']) {
      const found = new RegExp(`[\\n\\f]${heading}\\n`, 'g')
      found.lastIndex = at
      const match = found.exec(text)
      expect(match?.index, `"${heading}" after offset ${at}`).toBeGreaterThan(at)
      at = match!.index
    }
    // every page but the last is well filled
    const lines = linesPerPage(pdf, pages)
    expect(lines.slice(0, -1).filter((n) => n < 25), lines.join(', ')).toEqual([])
  })

  it(`prints ${VARIANTS} variants x 30 metrics with their content only: a figure's lines break across pages, pages filled`, async () => {
    const runDir = path.join(dir, 'run20')
    mkdirSync(runDir)
    writeFileSync(path.join(runDir, 'run.json'), JSON.stringify(syntheticRun('20261121-000000-pages1', 'Twenty variants', new Date('2026-11-21T00:00:00Z'))))
    const pdf = path.join(dir, 'twenty.pdf')
    const result = await cli(['report', runDir, '--pdf', pdf])
    expect(result.status, result.stderr).toBe(0)
    const pages = pageCount(pdf)
    // 600 variant lines of figures, six relative charts of 20 bars, 21 targets' environments and the commands they ran: 35
    // pages (82 before issue 18)
    expect(pages).toBeLessThanOrEqual(40)
    // a chart of twenty bars is most of a page, so it may leave the end of a table alone on one (two of them here); no other
    // page is short
    const lines = linesPerPage(pdf, pages)
    expect(lines.slice(0, -1).filter((n) => n < 20).length, lines.join(', ')).toBeLessThanOrEqual(2)
    // the first page lists every variant's verdicts
    const text = pageText(pdf)
    const verdicts = text.slice(text.indexOf('Verdicts on the primary figures'), text.indexOf('Storage: relative %, value and 95 % interval'))
    expect(verdicts.match(/^\s*guest-\d\d /gm)).toHaveLength(VARIANTS)
  })
})
