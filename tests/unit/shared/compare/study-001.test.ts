import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare'
import type { CompareInput, Comparison, Measurement } from '../../../../src/shared/model/comparison'
import type { Better, Unit } from '../../../../src/shared/model/sample'
import { factsOf, sample } from './build-input'

/**
 * Study 001 (/work/shared/seeds/001_ff534fec0fc2706a.txt) publishes its figures and the relative
 * % it computed from them. Fed those figures, compare() must give the same percentages, rounded as
 * the study rounds them (whole % in the tables, one decimal for the CPU overheads).
 */

/** A figure as the study prints it ("22.1k", "981KiB/s", "23.8MiB/s") in base units. */
function studyFigure(text: string): number {
  const match = /^([\d.]+)(k|KiB\/s|MiB\/s)?$/.exec(text)
  if (!match?.[1]) throw new Error(`not a figure of study 001: ${text}`)
  const scale = { k: 1000, 'KiB/s': 1024, 'MiB/s': 1024 * 1024 }[match[2] ?? ''] ?? 1
  return Number(match[1]) * scale
}

const FIO_TESTS = ['4k-randread', '4k-randwrite', '4k-read', '4k-write', '1m-read', '1m-write'] as const
const DIRECTION = { '4k-randread': 'read', '4k-randwrite': 'write', '4k-read': 'read', '4k-write': 'write', '1m-read': 'read', '1m-write': 'write' }

/** "Local Storage IO Testing": IOPS, throughput for each of the six fio jobs, verbatim. */
const LOCAL_STORAGE: Record<string, string[]> = {
  'Physical Machine': ['195', '782KiB/s', '7349', '28.7MiB/s', '22.1k', '86.3MiB/s', '24.5k', '95.8MiB/s', '1055', '1056MiB/s', '1117', '1118MiB/s'],
  'Linux (cache=none)': ['245', '981KiB/s', '6096', '23.8MiB/s', '9458', '36.9MiB/s', '6278', '24.5MiB/s', '979', '980MiB/s', '1058', '1059MiB/s'],
  'Linux (cache=none,queues=4)': ['243', '973KiB/s', '7483', '29.2MiB/s', '11.5k', '44.9MiB/s', '7271', '28.4MiB/s', '958', '959MiB/s', '1052', '1052MiB/s'],
  'Linux (cache=writeback)': ['13.0k', '54.5MiB/s', '8360', '32.7MiB/s', '13.1k', '51.3MiB/s', '8976', '35.1MiB/s', '2550', '2551MiB/s', '1045', '1046MiB/s'],
  'Linux (cache=writeback,queues=4)': ['28.7k', '112MiB/s', '12.2k', '47.5MiB/s', '29.6k', '116MiB/s', '11.2k', '43.8MiB/s', '2931', '2932MiB/s', '1220', '1220MiB/s'],
  'Windows (cache=none)': ['2811', '11.0MiB/s', '6002', '23.4MiB/s', '11.8k', '46.1MiB/s', '4289', '16.8MiB/s', '1009', '1009MiB/s', '685', '686MiB/s'],
  'Windows (cache=none,queues=4)': ['2794', '10.9MiB/s', '7448', '29.1MiB/s', '21.1k', '82.6MiB/s', '25.5k', '99.7MiB/s', '930', '930MiB/s', '1013', '1014MiB/s'],
  'Windows (cache=writeback)': ['2483', '9935KiB/s', '7430', '29.0MiB/s', '10.9k', '42.8MiB/s', '13.6k', '53.0MiB/s', '1993', '1994MiB/s', '920', '920MiB/s'],
  'Windows (cache=writeback,queues=4)': ['4520', '17.7MiB/s', '18.8k', '73.6MiB/s', '23.3k', '90.8MiB/s', '21.8k', '85.1MiB/s', '2628', '2628MiB/s', '1191', '1192MiB/s']
}

/**
 * The "(relative %)" rows, verbatim, except the entries the study's own figures cannot give
 * (null), for reasons that lie in the study, not in the arithmetic:
 * - throughput of the 4k random read where the guest is in MiB/s and the host in KiB/s
 *   (6969, 14322, 1407, 1394, 2263 %): the study took 1 MiB as 1000 KiB (54.5 x 1000 / 782 =
 *   6969 %); with 1 MiB = 1024 KiB it is 7137 %.
 * - Windows 4k random read IOPS 2811, 2794 and 4520 vs 195 (published 1441, 1432, 2317 %): the
 *   printed IOPS are rounded, and the study divided the unrounded ones; the printed figures give
 *   1441.5, 1432.8 and 2317.9 %, which round one higher.
 * - Windows writeback,queues=4 1 MiB write 1191 vs 1117 and 1192 vs 1118 (published 106 %): the
 *   printed figures give 106.6 %.
 * The Windows writeback,queues=4 4k random write is printed "2558%" and "2564%": the decimal point
 * was lost (18.8k / 7349 = 255.8 %, 73.6 / 28.7 = 256.4 %), so those two are checked to one decimal.
 */
const PUBLISHED_RELATIVE: Record<string, (number | null | { oneDecimal: number })[]> = {
  'Linux (cache=none)': [126, 125, 83, 83, 43, 43, 26, 26, 93, 93, 95, 95],
  'Linux (cache=none,queues=4)': [125, 124, 102, 102, 52, 52, 30, 30, 91, 91, 94, 94],
  'Linux (cache=writeback)': [6667, null, 114, 114, 59, 59, 37, 37, 242, 242, 94, 94],
  'Linux (cache=writeback,queues=4)': [14718, null, 166, 166, 134, 134, 46, 46, 278, 278, 109, 109],
  'Windows (cache=none)': [null, null, 82, 82, 53, 53, 18, 18, 96, 96, 61, 61],
  'Windows (cache=none,queues=4)': [null, null, 101, 101, 95, 96, 104, 104, 88, 88, 91, 91],
  'Windows (cache=writeback)': [1273, 1270, 101, 101, 49, 50, 56, 55, 189, 189, 82, 82],
  'Windows (cache=writeback,queues=4)': [null, null, { oneDecimal: 255.8 }, { oneDecimal: 256.4 }, 105, 105, 89, 89, 249, 249, null, null]
}

function fioMeasurements(side: string, figures: string[]): Measurement[] {
  return FIO_TESTS.map((testId, i) => {
    const dir = DIRECTION[testId]
    return {
      side,
      testId,
      repetition: 1,
      samples: [
        sample(`fio.${dir}.iops`, studyFigure(figures[2 * i] ?? ''), 'op/s', 'higher'),
        sample(`fio.${dir}.bandwidth`, studyFigure(figures[2 * i + 1] ?? ''), 'B/s', 'higher')
      ]
    }
  })
}

function localStorageComparison(): Comparison {
  const [baseline, ...variants] = Object.keys(LOCAL_STORAGE) as [string, ...string[]]
  const input: CompareInput = {
    baseline,
    variants,
    tests: FIO_TESTS.map((id) => ({ id, title: id, aggregate: 'median' })),
    measurements: Object.entries(LOCAL_STORAGE).flatMap(([side, figures]) => fioMeasurements(side, figures)),
    factsOf: factsOf()
  }
  return compare(input)
}

function relativeOf(comparison: Comparison, testId: string, metric: string, variant: string): number | undefined {
  const row = comparison.rows.find((r) => r.testId === testId && r.metric === metric)
  return row?.cells.find((c) => c.variant === variant)?.relativePct
}

describe('study 001, local storage: the published relative % of IOPS and throughput', () => {
  const comparison = localStorageComparison()

  it('reproduces the two pairs the issue names: 245 vs 195 IOPS is 126 %, 9458 vs 22.1k is 43 %', () => {
    expect(Math.round(relativeOf(comparison, '4k-randread', 'fio.read.iops', 'Linux (cache=none)') ?? 0)).toBe(126)
    expect(Math.round(relativeOf(comparison, '4k-read', 'fio.read.iops', 'Linux (cache=none)') ?? 0)).toBe(43)
  })

  const cases = Object.entries(PUBLISHED_RELATIVE).flatMap(([variant, published]) =>
    published.flatMap((expected, column) => {
      if (expected === null) return []
      const testId = FIO_TESTS[Math.floor(column / 2)] ?? ''
      const metric = `fio.${DIRECTION[testId as keyof typeof DIRECTION]}.${column % 2 === 0 ? 'iops' : 'bandwidth'}`
      return [{ variant, testId, metric, expected }]
    })
  )

  it('checks 86 of the 96 published entries (the rest are explained above)', () => {
    expect(cases).toHaveLength(86)
  })

  it.each(cases)('$variant, $testId $metric: $expected %', ({ variant, testId, metric, expected }) => {
    const relative = relativeOf(comparison, testId, metric, variant)
    expect(relative).toBeDefined()
    if (typeof expected === 'number') expect(Math.round(relative ?? 0)).toBe(expected)
    else expect(Number((relative ?? 0).toFixed(1))).toBe(expected.oneDecimal)
  })

  it('makes no claim from one run per side, as the study ran each job once: no interval, every verdict inconclusive, no flag', () => {
    // even 6667 % (writeback 4k random read) is one value against one: the data cannot tell noise apart
    for (const cell of comparison.rows.flatMap((r) => r.cells)) {
      expect(cell.ci95).toBeUndefined()
      expect(cell.verdict).toBe('inconclusive')
      expect(cell.flags.filter((f) => f.kind === 'faster-than-baseline')).toEqual([])
    }
  })
})

function networkComparison(baseline: [string, number], variants: [string, number][]): Comparison {
  const measurement = ([side, gbps]: [string, number]): Measurement => ({
    side,
    testId: 'iperf3',
    repetition: 1,
    samples: [sample('iperf3.received.bandwidth', gbps * 1e9, 'bit/s', 'higher')]
  })
  return compare({
    baseline: baseline[0],
    variants: variants.map(([name]) => name),
    tests: [{ id: 'iperf3', title: 'TCP bandwidth (iperf3, 30 s, best of 3)', aggregate: 'best' }],
    measurements: [baseline, ...variants].map(measurement),
    factsOf: factsOf()
  })
}

describe('study 001, network', () => {
  it('classic network: 8.40 and 8.41 Gbps against 8.35 Gbps are 101 %', () => {
    // The published 99.7 % for 8.33 Gbps is left out: 8.33 / 8.35 is 99.76 %, which rounds to 99.8 %.
    const cells = networkComparison(['physical to physical', 8.35], [
      ['physical to virtual', 8.4],
      ['virtual to physical', 8.41]
    ]).rows[0]?.cells
    expect(cells?.map((c) => Math.round(c.relativePct ?? 0))).toEqual([101, 101])
  })

  it('VPC: 8.96 and 5.83 Gbps against 9.19 Gbps are 97 % and 63 %, with no cap flagged', () => {
    const cells = networkComparison(['physical to physical', 9.19], [
      ['virtual to virtual', 8.96],
      ['virtual EIP to virtual EIP', 5.83]
    ]).rows[0]?.cells
    expect(cells?.map((c) => Math.round(c.relativePct ?? 0))).toEqual([97, 63])
    expect(cells?.flatMap((c) => c.flags)).toEqual([])
  })
})

function cpuComparison(rows: [string, Unit, Better, number, number][]): Comparison {
  return compare({
    baseline: 'physical',
    variants: ['virtual'],
    tests: [{ id: 'unixbench', title: 'UnixBench', aggregate: 'median' }],
    measurements: (['physical', 'virtual'] as const).map((side, s) => ({
      side,
      testId: 'unixbench',
      repetition: 1,
      samples: rows.map(([metric, unit, better, host, guest]) => sample(metric, s === 0 ? host : guest, unit, better, { copies: '1' }))
    })),
    factsOf: factsOf()
  })
}

describe('study 001, CPU: the published overheads (physical - virtual) / physical', () => {
  it('Dhrystone 2.5 %, Whetstone 2.8 %, File Copy 2.1 %', () => {
    // The memory table's "1.7%" for MEMCPY (7578.348 vs 6254.520 MiB/s) is left out: those
    // figures give 17.5 %, so the study lost a digit.
    const comparison = cpuComparison([
      ['unixbench.dhry2reg', 'lps', 'higher', 34839728.4, 33964545.0],
      ['unixbench.whetstone-double', 'MWIPS', 'higher', 4368.3, 4244.3],
      ['unixbench.fsdisk', 'B/s', 'higher', 1825548.4 * 1024, 1788048.3 * 1024]
    ])
    const overheads = comparison.rows.map((r) => Number((r.cells[0]?.overheadPct ?? Number.NaN).toFixed(1)))
    expect(overheads).toEqual([2.5, 2.8, 2.1])
    expect(comparison.rows.map((r) => r.labels)).toEqual([{ copies: '1' }, { copies: '1' }, { copies: '1' }])
  })
})
