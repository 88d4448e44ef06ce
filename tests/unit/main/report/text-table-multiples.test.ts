import { describe, expect, it } from 'vitest'
import { comparisonTable } from '../../../../src/main/report/text-table'
import { compare } from '../../../../src/shared/compare'
import { formatMultiple } from '../../../../src/shared/format'
import { factsOf, repetitions } from '../../shared/compare/build-input'

const MIB = 2 ** 20

/**
 * Study 003's targets against its RAID 1 of hard disks, with figures of the study's proportions:
 * the SSD about 11 times faster, the NFS-mounted RAID 3 times slower, the VM about 8 % slower,
 * and one target whose repetitions scatter too much to tell.
 */
function study003() {
  const bw = (side: string, mib: number[]) => repetitions(side, 'virt', 'fio.read.bandwidth', mib.map((v) => v * MIB), 'B/s', 'higher')
  return compare({
    baseline: 'raid1',
    variants: ['ssd', 'raid1-nfs', 'vm', 'noisy'],
    tests: [{ id: 'virt', title: 'fio job file', aggregate: 'median' }],
    measurements: [
      ...bw('raid1', [10, 10.1, 9.9, 10, 10.05]),
      ...bw('ssd', [111, 112, 110, 113, 112]),
      ...bw('raid1-nfs', [3.3, 3.35, 3.4, 3.3, 3.35]),
      ...bw('vm', [9.2, 9.25, 9.15, 9.2, 9.2]),
      ...bw('noisy', [4, 30, 9, 16, 2])
    ],
    factsOf: factsOf({ virt: ['fio.read.bandwidth'] })
  })
}

describe('results read as multiples (study 003: "11 times faster", "3 times slower")', () => {
  it('turns a relative % and its interval into a multiple, only for a slower or faster verdict', () => {
    expect(formatMultiple(1120, [1080, 1160], 'faster', 'host')).toBe('11.2x faster than host [10.8–11.6]')
    expect(formatMultiple(33.3, [31.25, 35.7], 'slower', 'raid1')).toBe('3.00x slower than raid1 [2.80–3.20]')
    expect(formatMultiple(92, [90, 94], 'slower')).toBe('1.09x slower [1.06–1.11]')
    expect(formatMultiple(900, undefined, 'faster')).toBe('9.00x faster')
    expect(formatMultiple(250, [150, 400], 'inconclusive', 'host')).toBeUndefined()
    expect(formatMultiple(100.5, [99, 102], 'same', 'host')).toBeUndefined()
  })

  it("prints one line per faster or slower figure under the table, from the interval the comparison has, and none for can't tell", () => {
    const comparison = study003()
    const cells = comparison.rows[0]!.cells
    expect(cells.map((c) => c.verdict)).toEqual(['faster', 'slower', 'slower', 'inconclusive'])
    const table = comparisonTable(comparison)
    const block = table.split('\n\n').find((part) => part.startsWith('As multiples'))!.split('\n')
    const expected = cells.slice(0, 3).map((cell, v) => `fio job file · fio.read.bandwidth: ${comparison.variants[v]} ${formatMultiple(cell.relativePct!, cell.ci95, cell.verdict, 'raid1')}`)
    expect(block).toEqual(['As multiples of the baseline (95 % interval in brackets; slower and faster figures only)', ...expected])
    expect(block[1]).toMatch(/^fio job file · fio\.read\.bandwidth: ssd 11\.2x faster than raid1 \[1\d\.\d–1\d\.\d\]$/)
    expect(block[2]).toMatch(/: raid1-nfs 2\.99x slower than raid1 \[\d\.\d\d–\d\.\d\d\]$/)
    expect(block[3]).toMatch(/: vm 1\.09x slower than raid1 \[1\.\d\d–1\.\d\d\]$/)
    expect(table).not.toMatch(/noisy \d/)
  })

  it('prints no such block when nothing is slower or faster', () => {
    const bw = (side: string, v: number[]) => repetitions(side, 't', 'fio.read.iops', v, 'op/s', 'higher')
    const same = compare({ baseline: 'a', variants: ['b'], tests: [], measurements: [...bw('a', [100, 101, 99]), ...bw('b', [100, 100.5, 99.5])], factsOf: factsOf({ t: ['fio.read.iops'] }) })
    expect(comparisonTable(same)).not.toContain('As multiples')
  })
})
