import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { comparisonTable } from '../../../../src/main/report/text-table'
import { describeRun } from '../../../../src/main/tools/describe-run'
import { compare, median, percentile } from '../../../../src/shared/compare'
import type { Comparison } from '../../../../src/shared/model/comparison'
import { RunDocumentSchema, type RunDocument } from '../../../../src/shared/model/run'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'
import { absoluteSurfaces, hasSurfaces, placeText, sizeText, surfaceMaps } from '../../../../src/shared/studies/surface-maps'
import { EMPTY_CELL_NOTE, surfaceGridsText, surfaceText } from '../../../../src/shared/studies/surface-text'

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

  it("gives every sub-test's figures per machine, exactly as iozone printed them (1 MiB file, 4 KiB records)", () => {
    const doc = run()
    const c = comparison()
    const sets = absoluteSurfaces(c)
    const maps = surfaceMaps(c)
    expect(sets.map((s) => s.subtest)).toEqual(SUBTESTS.map(([subtest]) => subtest))
    for (const [subtest, title, host, guest, pct] of SUBTESTS) {
      const set = sets.find((s) => s.subtest === subtest)!
      expect(set.machines.map((m) => [m.side, m.role, m.measured])).toEqual([['host', 'baseline', 56], ['guest', 'variant', 56]])
      expect(set.unit).toBe('B/s')
      const at = (side: number) => set.machines[side]!.cells[set.fileSizes.indexOf(1024 * 1024)]![set.recordSizes.indexOf(4 * 1024)]!
      // the median of the two repetitions, in B/s: iozone's kB/s x 1024
      expect(at(0)).toEqual({ value: host, n: 2 })
      expect(at(1)).toEqual({ value: guest, n: 2 })
      expect(host).toBe(median(rawValues(doc, 'host', title, 1024, 4)))
      expect(guest).toBe(median(rawValues(doc, 'guest', title, 1024, 4)))
      const relative = maps.find((m) => m.subtest === subtest)!
      const cell = relative.cells[relative.fileSizes.indexOf(1024 * 1024)]![relative.recordSizes.indexOf(4 * 1024)]!
      expect(cell.relativePct.toFixed(4)).toBe(pct)
      expect(relative.fileSizes).toEqual(set.fileSizes)
      expect(relative.recordSizes).toEqual(set.recordSizes)
    }
  })

  it('leaves a cell no run produced empty on every machine, and scales colours from the largest figure of any machine', () => {
    for (const set of absoluteSurfaces(comparison())) {
      set.fileSizes.forEach((file, r) =>
        set.recordSizes.forEach((record, col) => {
          for (const m of set.machines) expect(m.cells[r]![col] === undefined).toBe(record > file)
        })
      )
      const all = set.machines.flatMap((m) => m.cells.flat().flatMap((c) => (c ? [c.value] : [])))
      expect(set.scaleMax).toBe(Math.max(...all))
      for (const m of set.machines) {
        const own = m.cells.flat().flatMap((c) => (c ? [c.value] : []))
        expect(m.lowest?.value).toBe(Math.min(...own))
        expect(m.highest?.value).toBe(Math.max(...own))
      }
    }
    const write = absoluteSurfaces(comparison()).find((s) => s.subtest === 'write')!
    expect(write.scaleMax).toBe(5_674_185_728)
    expect(write.machines[0]!.highest).toEqual({ fileSize: 2 * 1024 * 1024, recordSize: 1024 * 1024, value: 5_674_185_728 })
    expect(write.scaleMax).toBe(median(rawValues(run(), 'host', 'Writer report', 2048, 1024)))
    expect(write.machines[1]!.highest).toEqual({ fileSize: 4 * 1024 * 1024, recordSize: 2 * 1024 * 1024, value: 5_563_572_224 })
  })

  it('a machine without a figure in a cell has it empty, and the relative map too', () => {
    const c = comparison()
    const [first, ...rest] = c.rows
    const oneSided: Comparison = { ...c, rows: [{ ...first!, baseline: undefined } as (typeof c.rows)[number], ...rest] }
    const write = absoluteSurfaces(oneSided).find((s) => s.subtest === 'write')!
    const file = write.fileSizes.indexOf(Number(first!.labels.file_size))
    const record = write.recordSizes.indexOf(Number(first!.labels.record_size))
    expect(write.machines[0]!.cells[file]![record]).toBeUndefined()
    expect(write.machines[0]!.measured).toBe(55)
    expect(write.machines[1]!.cells[file]![record]).toBeDefined()
    expect(surfaceMaps(oneSided).find((m) => m.subtest === 'write')!.cells[file]![record]).toBeUndefined()
  })

  it("prints every sub-test's grids in the terminal: each machine's with units, then the relative %", () => {
    const c = comparison()
    const text = surfaceGridsText(absoluteSurfaces(c), surfaceMaps(c))
    const lines = text.split('\n')
    for (const [subtest] of SUBTESTS) {
      const words = subtest.replace(/_/g, ' ')
      expect(lines).toContain(`iozone -Raz up to 4 MiB files · ${words}`)
      expect(lines).toContain(`  ${words} on host`)
      expect(lines).toContain(`  ${words} on guest`)
      expect(lines).toContain(`  ${words}: guest against host, relative %`)
    }
    const write = lines.indexOf('  write on host')
    expect(lines[write + 1]).toMatch(/^ {2}file ↓ record → +4 KiB +8 KiB .* 4 MiB$/)
    // the 64 KiB file: five record sizes measured, six larger than the file
    expect(lines[write + 2]!.trim().split(/ {2,}/)).toEqual(['64 KiB', '863 MiB/s', '1.26 GiB/s', '1.69 GiB/s', '2.10 GiB/s', '1.41 GiB/s', '—', '—', '—', '—', '—', '—'])
    expect(lines[write + 6]!.trim().split(/ {2,}/)[1]).toBe('981 MiB/s')
    const relative = lines.indexOf('  write: guest against host, relative %')
    expect(lines[relative + 6]!.trim().split(/ {2,}/).slice(0, 2)).toEqual(['1 MiB', '100 %'])
    // every value a machine produced carries its unit
    const grids = lines.filter((l) => /^ {2}\d+ [KM]iB /.test(l))
    expect(grids).toHaveLength(13 * 3 * 7)
    for (const l of grids) for (const v of l.trim().split(/ {2,}/).slice(1)) expect(v).toMatch(/^(—|[\d.]+ (MiB|GiB)\/s|\d+ %)$/)
    expect(text.trimEnd().endsWith(EMPTY_CELL_NOTE)).toBe(true)
    expect(surfaceGridsText([], [])).toBe('')
  })
})

/** Sub-test, its block in iozone's -R output, host's and guest's figure (B/s) and the relative %, at 1 MiB file, 4 KiB records. */
const SUBTESTS: [string, string, number, number, string][] = [
  ['write', 'Writer report', 1_028_480_000, 1_033_470_976, '100.4853'],
  ['rewrite', 'Re-writer report', 2_932_568_064, 2_874_148_352, '98.0079'],
  ['read', 'Reader report', 5_877_782_016, 5_829_683_200, '99.1817'],
  ['reread', 'Re-Reader report', 4_549_637_120, 3_804_610_048, '83.6245'],
  ['random_read', 'Random read report', 4_359_810_560, 4_251_737_088, '97.5211'],
  ['random_write', 'Random write report', 2_551_371_776, 2_476_676_096, '97.0723'],
  ['backward_read', 'Backward read report', 3_716_936_704, 3_805_735_936, '102.3890'],
  ['record_rewrite', 'Record rewrite report', 3_350_969_344, 3_362_619_904, '100.3477'],
  ['stride_read', 'Stride read report', 3_631_192_576, 4_377_028_608, '120.5397'],
  ['fwrite', 'Fwrite report', 2_748_371_968, 2_268_126_720, '82.5262'],
  ['frewrite', 'Re-Fwrite report', 2_757_094_912, 2_797_012_480, '101.4478'],
  ['fread', 'Fread report', 5_637_758_464, 5_577_090_560, '98.9239'],
  ['freread', 'Re-Fread report', 5_792_196_608, 5_671_728_128, '97.9202']
]
