import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { comparisonTable } from '../../../../src/main/report/text-table'
import { describeRun } from '../../../../src/main/tools/describe-run'
import { compare, median, percentile } from '../../../../src/shared/compare'
import type { Comparison } from '../../../../src/shared/model/comparison'
import { RunDocumentSchema, type RunDocument } from '../../../../src/shared/model/run'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'
import { hasSurfaces, placeText, sizeText, surfaceMaps } from '../../../../src/shared/studies/surface-maps'
import { surfaceText } from '../../../../src/shared/studies/surface-text'

const RUN_DIR = path.join(__dirname, '../../../fixtures/runs/iozone-local')

/** The stored iozone run (tests/fixtures/runs/README.md): host against guest, 2 repetitions each, 728 values a job. */
function run(): RunDocument {
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(RUN_DIR, 'run.json'), 'utf8'))))
}

function comparison(): Comparison {
  return compare(comparisonInputOf(run()))
}

/**
 * One cell of one "<title> report" block of iozone's -R output, read here by hand from the raw
 * stdout the engine kept (kB/s as iozone printed it), so the test does not trust the parser.
 */
function reportCell(stdout: string, title: string, fileKB: number, recordKB: number): number {
  const lines = stdout.split('\n')
  const start = lines.indexOf(`"${title}"`)
  const records = [...(lines[start + 1] ?? '').matchAll(/"(\d+)"/g)].map((m) => Number(m[1]))
  const row = lines.slice(start + 2).find((l) => l.startsWith(`"${fileKB}"`))!
  const values = row.trim().split(/\s+/).slice(1).map(Number)
  return values[records.indexOf(recordKB)]!
}

function rawValues(doc: RunDocument, side: string, title: string, fileKB: number, recordKB: number): number[] {
  return doc.jobs
    .filter((j) => j.side === side && j.status === 'succeeded')
    .map((j) => reportCell(readFileSync(path.join(RUN_DIR, j.steps[0]!.stdoutFile!), 'utf8'), title, fileKB, recordKB) * 1024)
}

describe("iozone's surfaces compared (study 000)", () => {
  it('compares every cell of all 13 sub-tests, which the overhead table leaves out', () => {
    const c = comparison()
    expect(c.rows).toHaveLength(728)
    expect(hasSurfaces(c)).toBe(true)
    const maps = surfaceMaps(c)
    expect(maps.map((m) => m.subtest)).toEqual([
      'write', 'rewrite', 'read', 'reread', 'random_read', 'random_write', 'backward_read',
      'record_rewrite', 'stride_read', 'fwrite', 'frewrite', 'fread', 'freread'
    ])
    for (const m of maps) {
      expect(m.variant).toBe('guest')
      expect(m.baseline).toBe('host')
      expect(m.fileSizes.map(sizeText)).toEqual(['64 KiB', '128 KiB', '256 KiB', '512 KiB', '1 MiB', '2 MiB', '4 MiB'])
      expect(m.recordSizes.map(sizeText)).toEqual(['4 KiB', '8 KiB', '16 KiB', '32 KiB', '64 KiB', '128 KiB', '256 KiB', '512 KiB', '1 MiB', '2 MiB', '4 MiB'])
      expect(m.summary.compared).toBe(56)
      expect(m.summary.oneSided).toBe(0)
    }
  })

  it("puts each cell's relative % where its file and record size are, from the figures iozone printed", () => {
    const doc = run()
    const write = surfaceMaps(comparison()).find((m) => m.subtest === 'write')!
    const cell = write.cells[write.fileSizes.indexOf(1024 * 1024)]![write.recordSizes.indexOf(4 * 1024)]!
    const host = median(rawValues(doc, 'host', 'Writer report', 1024, 4))!
    const guest = median(rawValues(doc, 'guest', 'Writer report', 1024, 4))!
    expect(cell.baseline).toBe(host)
    expect(cell.value).toBe(guest)
    expect(cell.relativePct).toBeCloseTo((guest / host) * 100, 9)
    // a record larger than its file: iozone measured nothing there
    expect(write.cells[write.fileSizes.indexOf(64 * 1024)]![write.recordSizes.indexOf(128 * 1024)]).toBeUndefined()
  })

  it("sums a grid up by its cells' own relative %: median, middle half, lowest and highest with where they are", () => {
    const read = surfaceMaps(comparison()).find((m) => m.subtest === 'read')!
    const cells = read.cells.flat().filter((c) => c !== undefined)
    const pcts = cells.map((c) => c.relativePct)
    expect(read.summary.medianPct).toBe(median(pcts))
    expect(read.summary.middleHalfPct).toEqual([percentile(pcts, 25), percentile(pcts, 75)])
    const lowest = cells.reduce((a, b) => (b.relativePct < a.relativePct ? b : a))
    expect(read.summary.lowest).toEqual({ fileSize: lowest.fileSize, recordSize: lowest.recordSize, relativePct: Math.min(...pcts) })
    expect(read.summary.highest?.relativePct).toBe(Math.max(...pcts))
    const counts = read.summary.counts
    expect(counts.slower + counts.faster + counts.same + counts.inconclusive).toBe(56)
    expect(counts.inconclusive).toBe(cells.filter((c) => c.verdict === 'inconclusive').length)
  })

  it('prints one line per sub-test in the terminal, and no "No comparable results" above them', () => {
    const c = comparison()
    const table = comparisonTable(c)
    expect(table).not.toContain('No comparable results')
    expect(table).toContain('file size x record size')
    const text = surfaceText(surfaceMaps(c))
    const lines = text.trimEnd().split('\n')
    expect(lines[0]).toBe('iozone -Raz up to 4 MiB files: guest against host, relative % per file size x record size')
    expect(lines[1]).toMatch(/^sub-test +cells +median +middle half +lowest +highest +verdicts of the cells$/)
    expect(lines).toHaveLength(3 + 13)
    const write = surfaceMaps(c).find((m) => m.subtest === 'write')!
    const writeLine = lines.find((l) => l.startsWith('write '))!
    expect(writeLine).toContain(`${write.summary.medianPct!.toFixed(0)} %`)
    expect(writeLine).toContain(`(${placeText(write.summary.lowest!)})`)
    expect(lines.find((l) => l.startsWith('random read '))).toBeDefined()
  })

  it('a run without surfaces has none, and an empty table still says so', () => {
    const c = comparison()
    const none: Comparison = { ...c, rows: [] }
    expect(surfaceMaps(none)).toEqual([])
    expect(comparisonTable(none)).toContain('No comparable results')
  })

  it('counts a cell that only one side measured apart, and gives it no relative %', () => {
    const c = comparison()
    const [first, ...rest] = c.rows
    const oneSided: Comparison = { ...c, rows: [{ ...first!, baseline: undefined } as (typeof c.rows)[number], ...rest] }
    const write = surfaceMaps(oneSided).find((m) => m.subtest === 'write')!
    expect(write.summary.compared).toBe(55)
    expect(write.summary.oneSided).toBe(1)
  })
})
