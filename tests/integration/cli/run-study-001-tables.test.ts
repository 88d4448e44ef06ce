import { describe, expect, it } from 'vitest'
import { study001Tables, study001Text } from '../../../src/shared/studies/study001-tables'
import { comparedRun, sectionOf, useLocalCli } from '../../harness/local-cli'

const SECTION = "CPU, memory and fio per machine (study 001's tables)"

/**
 * Study 001's own tables through the CLI: two tests of its pack (cloud-acceptance, quick form),
 * the 4 KiB random read (real fio) and mbw (real mbw), on two "This computer" targets, a host and
 * a guest. `virtbench run` prints, beside the overhead table, the memory table with the overhead
 * as the study defines it and the fio table per machine, exactly as the run document gives them.
 */
describe('virtbench run: study 001’s memory and fio tables', () => {
  const local = useLocalCli('vb-cli-001-tables-')

  it('prints the memory overhead in MiB/s with its verdict, and the fio figures of each machine with the guest’s %', { timeout: 300_000 }, async () => {
    await local.addTargets(['host', 'guest'])
    const { result, out } = await local.run({
      name: 'study 001 tables',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      tests: [{ pack: 'cloud-acceptance', form: 'quick', only: ['fio-4k-randread', 'mbw'] }],
      repetitions: 2
    })

    const { run, comparison } = comparedRun(out)
    const tables = study001Tables(run, comparison)
    expect(tables.overhead.map((t) => t.id)).toEqual(['memory'])
    expect(tables.fio!.columns.map((c) => c.testId)).toEqual(['fio-4k-randread'])
    const section = sectionOf(result.stdout, SECTION)
    expect(section.startsWith(study001Text(tables))).toBe(true)

    // mbw's MEMCPY AVG in MiB/s with three decimals, as mbw prints it, and the overhead by the study's formula
    const memcpy = tables.overhead[0]!.rows[0]!
    const overhead = ((memcpy.baseline! - memcpy.cells[0]!.value!) / memcpy.baseline!) * 100
    expect(memcpy.cells[0]!.overheadPct).toBeCloseTo(overhead, 9)
    expect(section).toContain('Memory (mbw): Virtualization overhead = (Physical − Virtual) / Physical (host as Physical)')
    expect(section).toMatch(/^MEMCPY AVG +\d+\.\d{3} MiB\/s +\d+\.\d{3} MiB\/s +−?\d+\.\d % \[−?\d+\.\d to −?\d+\.\d\] \((slower|faster|same|can't tell)\)$/m)
    // fio: each machine's line of figures, and under the guest's its % of the host
    expect(section).toMatch(/^host +[\d.]+k? op\/s +[\d.]+ [KMG]iB\/s$/m)
    expect(section).toMatch(/^guest +[\d.]+k? op\/s +[\d.]+ [KMG]iB\/s$/m)
    expect(section).toMatch(/^ +\(\d+ %(, (same|can't tell))?\) +\(\d+ %(, (same|can't tell))?\)$/m)
  })
})
