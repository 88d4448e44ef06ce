import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../../src/main/tools/describe-run'
import { compare, median } from '../../../../src/shared/compare'
import { RunDocumentSchema, type RunDocument } from '../../../../src/shared/model/run'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'
import {
  fioPctText,
  fioValueText,
  hasStudy001Tables,
  overheadHeader,
  overheadRowCells,
  overheadText,
  study001Tables,
  study001Text,
  toolValueText
} from '../../../../src/shared/studies/study001-tables'

const ROOT = path.join(__dirname, '../../../..')
const RUN_DIR = path.join(ROOT, 'tests/fixtures/runs/study001-local')

function readRun(file: string): RunDocument {
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))
}

const tablesOf = (doc: RunDocument): ReturnType<typeof study001Tables> => study001Tables(doc, compare(comparisonInputOf(doc)))

/** What the tool printed in one side's jobs of a test, read here by hand from the raw stdout the engine kept. */
function printed(doc: RunDocument, testId: string, side: string, line: RegExp): number[] {
  return doc.jobs
    .filter((j) => j.testId === testId && j.side === side && j.status === 'succeeded')
    .map((j) => {
      const text = readFileSync(path.join(RUN_DIR, j.steps.find((s) => s.stdoutFile)!.stdoutFile!), 'utf8')
      return Number(line.exec(text)![1])
    })
}

const DHRYSTONE = /^Dhrystone 2 using register variables\s+([\d.]+) lps/m
const WHETSTONE = /^Double-Precision Whetstone\s+([\d.]+) MWIPS/m
const FILE_COPY = /^File Copy 4096 bufsize 8000 maxblocks\s+([\d.]+) KBps/m
const MEMCPY = /^AVG\tMethod: MEMCPY\t.*Copy: ([\d.]+) MiB\/s/m

describe("study 001's CPU and memory overhead tables, from a real run of its pack", () => {
  // study001-local: the cloud-acceptance pack (quick) without iperf3, host against guest (one machine), 2 repetitions
  const doc = readRun(path.join(RUN_DIR, 'run.json'))
  const tables = tablesOf(doc)

  it('has the CPU table (Dhrystone, Whetstone, File Copy) in the CPU part and the memory table (MEMCPY AVG) in the memory part', () => {
    expect(tables.overhead.map((t) => [t.id, t.category, t.rows.map((r) => r.name)])).toEqual([
      ['cpu', 'cpu', ['Dhrystone', 'Double-Precision Whetstone', 'File Copy']],
      ['memory', 'memory', ['MEMCPY AVG']]
    ])
    expect(overheadHeader(tables.overhead[0]!)).toEqual(['Metric', 'host', 'guest', 'overhead of guest'])
  })

  it('gives the median of what UnixBench and mbw printed, in their own units (lps, MWIPS, KBps, MiB/s)', () => {
    const [cpu, memory] = tables.overhead
    const cases = [
      { row: cpu!.rows[0]!, test: 'unixbench', line: DHRYSTONE, unit: 'lps' },
      { row: cpu!.rows[1]!, test: 'unixbench', line: WHETSTONE, unit: 'MWIPS' },
      { row: cpu!.rows[2]!, test: 'unixbench', line: FILE_COPY, unit: 'KBps' },
      { row: memory!.rows[0]!, test: 'mbw', line: MEMCPY, unit: 'MiB/s' }
    ]
    for (const { row, test, line, unit } of cases) {
      const host = printed(doc, test, 'host', line)
      const guest = printed(doc, test, 'guest', line)
      expect(host).toHaveLength(2)
      expect(row.baseline! / row.tool.per).toBeCloseTo(median(host)!, 6)
      expect(row.cells[0]!.value! / row.tool.per).toBeCloseTo(median(guest)!, 6)
      expect(row.tool.unit).toBe(unit)
      // the study's formula, (Physical − Virtual) / Physical
      expect(row.cells[0]!.overheadPct).toBeCloseTo(((median(host)! - median(guest)!) / median(host)!) * 100, 6)
    }
    // host 42544189.5 and 36864259.5 lps; File Copy 1319950.0 and 1671546.0 KBps as UnixBench printed them
    expect(printed(doc, 'unixbench', 'host', DHRYSTONE)).toEqual([42544189.5, 36864259.5])
    expect(toolValueText(cpu!.rows[0]!.baseline, cpu!.rows[0]!.tool)).toBe('39704224.5 lps')
    expect(printed(doc, 'unixbench', 'host', FILE_COPY)).toEqual([1319950, 1671546])
    expect(toolValueText(cpu!.rows[2]!.baseline, cpu!.rows[2]!.tool)).toBe('1495748.0 KBps')
    expect(overheadRowCells(memory!.rows[0]!).slice(0, 3)).toEqual(['MEMCPY AVG', '9091.398 MiB/s', '8897.028 MiB/s'])
  })

  it("keeps the comparison's interval and verdict: two repetitions of one machine cannot tell an overhead from 0", () => {
    for (const row of tables.overhead.flatMap((t) => t.rows)) {
      const cell = row.cells[0]!
      expect(cell.verdict).toBe('inconclusive')
      expect(cell.ci95![0]).toBeLessThan(0)
      expect(cell.ci95![1]).toBeGreaterThan(0)
      expect(overheadText(cell)).toMatch(/^−?\d+\.\d % \[−\d+\.\d to \d+\.\d\] \(can't tell\)$/)
    }
    expect(overheadText(tables.overhead[1]!.rows[0]!.cells[0]!)).toBe("2.1 % [−133.1 to 58.7] (can't tell)")
    expect(overheadText(tables.overhead[0]!.rows[0]!.cells[0]!)).toBe("−6.8 % [−118.9 to 47.8] (can't tell)")
  })

  it('says under the memory table that an mbw before 1.4 labels its results the wrong way round, from the jobs’ warnings', () => {
    expect(doc.jobs.filter((j) => j.tool === 'mbw' && j.warnings.some((w) => w.startsWith('this mbw is older than 1.4')))).toHaveLength(4)
    expect(tables.overhead[1]!.notes).toEqual([
      'host, guest: this mbw is older than 1.4 and labels its results the wrong way round: the figure it labels MEMCPY, shown here as mbw printed it, ' +
        'times the b[i] = a[i] loop, not memcpy(). Install mbw 1.4 or later to compare memcpy() itself.'
    ])
    expect(tables.overhead[0]!.notes).toEqual([])
    const current: RunDocument = { ...doc, jobs: doc.jobs.map((j) => ({ ...j, warnings: j.warnings.filter((w) => !w.startsWith('this mbw is older than 1.4')) })) }
    expect(tablesOf(current).overhead[1]!.notes).toEqual([])
  })

  it('says "not measured" where a machine has no figure', () => {
    const partial: RunDocument = { ...doc, jobs: doc.jobs.filter((j) => !(j.testId === 'unixbench' && j.side === 'guest')) }
    const [cpu] = tablesOf(partial).overhead
    expect(overheadRowCells(cpu!.rows[0]!)).toEqual(['Dhrystone', '39704224.5 lps', 'not measured', 'not measured'])
  })

  it("prints the tables for a terminal, the study's formula in the caption", () => {
    const text = study001Text(tables)
    expect(text).toContain('CPU (UnixBench): Virtualization overhead = (Physical − Virtual) / Physical (host as Physical)')
    expect(text).toMatch(/^Dhrystone +39704224\.5 lps +42407476\.9 lps +−6\.8 % \[−118\.9 to 47\.8\] \(can't tell\)$/m)
    expect(text).toMatch(/^File Copy +1495748\.0 KBps +1793062\.0 KBps +−19\.9 % \[−302\.1 to 64\.0\] \(can't tell\)$/m)
    expect(text).toMatch(/^host +14\.7k op\/s +57\.5 MiB\/s/m)
  })
})

describe("study 001's fio table", () => {
  it('has one row per scenario and one IOPS and throughput column per job, from a real run', () => {
    const doc = readRun(path.join(RUN_DIR, 'run.json'))
    const fio = tablesOf(doc).fio!
    expect(fio.columns.map((c) => [c.testId, c.direction])).toEqual([
      ['fio-4k-randread', 'read'],
      ['fio-4k-randwrite', 'write'],
      ['fio-4k-read', 'read'],
      ['fio-4k-write', 'write'],
      ['fio-1m-read', 'read'],
      ['fio-1m-write', 'write']
    ])
    expect(fio.rows.map((r) => [r.machine, r.role])).toEqual([
      ['host', 'baseline'],
      ['guest', 'variant']
    ])
    // the 4 KiB random read: fio's read.iops of each of the host's two jobs, their median
    const iops = doc.jobs
      .filter((j) => j.testId === 'fio-4k-randread' && j.side === 'host')
      .map((j) => JSON.parse(readFileSync(path.join(RUN_DIR, j.steps.find((s) => s.stdoutFile)!.stdoutFile!), 'utf8').replace(/^[^{]*/, '')).jobs[0].read.iops as number)
    expect(fio.rows[0]!.cells[0]![0]!.value).toBeCloseTo(median(iops)!, 6)
  })

  // the study's published figures (resources/examples): one run per machine and job, as the study printed them
  const published = readRun(path.join(ROOT, 'resources/examples/study-001-published.run.json'))
  const fio = tablesOf(published).fio!

  it("lays out the study's own table: its scenarios, its figures and their % of the physical machine", () => {
    expect(fio.rows.map((r) => r.machine)).toEqual([
      'Physical Machine',
      'Linux Virtual Machine (cache=none)',
      'Linux Virtual Machine (cache=none,queues=4)',
      'Linux Virtual Machine (cache=writeback)',
      'Linux Virtual Machine (cache=writeback,queues=4)',
      'Windows Virtual Machine (cache=none)',
      'Windows Virtual Machine (cache=none,queues=4)',
      'Windows Virtual Machine (cache=writeback)',
      'Windows Virtual Machine (cache=writeback,queues=4)'
    ])
    const [physical, linux] = fio.rows
    // Physical Machine 195 IOPS, 782 KiB/s; Linux cache=none 245 IOPS (126 %), 981 KiB/s (125 %)
    expect(physical!.cells[0]!.map((c) => [c.value, fioValueText(c), fioPctText(c, 'baseline')])).toEqual([
      [195, '195 op/s', '(100 %)'],
      [782 * 1024, '782 KiB/s', '(100 %)']
    ])
    expect(linux!.cells[0]![0]!.relativePct).toBeCloseTo((245 / 195) * 100, 9)
    expect(linux!.cells[0]!.map((c) => [fioValueText(c), fioPctText(c, 'variant')])).toEqual([
      ['245 op/s', "(126 %, can't tell)"],
      ['981 KiB/s', "(125 %, can't tell)"]
    ])
    // 4 KiB sequential write, Linux cache=none: 6278 IOPS, 26 % of 24.5k
    expect(fioValueText(linux!.cells[3]![0]!)).toBe('6.28k op/s')
    expect(fioPctText(linux!.cells[3]![0]!, 'variant')).toBe("(26 %, can't tell)")
  })

  it('has no CPU or memory table when the run measured none of their figures', () => {
    expect(tablesOf(published).overhead).toEqual([])
    expect(study001Text(tablesOf(published))).toMatch(/^fio per scenario: .*% of Physical Machine/)
  })
})

describe('when the tables apply', () => {
  it('shows nothing for a run that is not of study 001’s pack, even with fio and mbw figures', () => {
    const loopback = readRun(path.join(ROOT, 'tests/fixtures/runs/loopback-quick/run.json'))
    expect(loopback.jobs.some((j) => j.tool === 'mbw' && j.status === 'succeeded')).toBe(true)
    expect(hasStudy001Tables(tablesOf(loopback))).toBe(false)
  })
})
