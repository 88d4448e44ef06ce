import { describe, expect, it } from 'vitest'
import { study002Charts, study002Text } from '../../../src/shared/studies/study002'
import { comparedRun, sectionOf, useLocalCli } from '../../harness/local-cli'

const SECTION = "Block device throughput and latency per machine (study 002's bars)"

/**
 * Study 002's bars through the CLI: its pack (block-dd, quick form, real dd with O_DIRECT) on three
 * "This computer" targets, a baseline and two variants. `virtbench run` prints, beside the overhead
 * table, the throughput and the latency chart as text, every machine a line, as the run document gives them.
 */
describe("virtbench run: study 002's throughput and latency bars", () => {
  const local = useLocalCli('vb-cli-002-')

  it('prints one throughput and one latency chart with a line per machine, its figure, its % and interval', { timeout: 300_000 }, async () => {
    await local.addTargets(['chroot', 'xen-pv', 'kvm-virtio'])
    const { result, out } = await local.run({
      name: 'study 002 bars',
      baseline: { target: 'chroot' },
      variants: [{ target: 'xen-pv' }, { target: 'kvm-virtio' }],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      repetitions: 2
    })

    const { run, comparison } = comparedRun(out)
    const charts = study002Charts(run, comparison)
    expect(charts.map((c) => c.id)).toEqual(['throughput', 'latency'])
    const section = sectionOf(result.stdout, SECTION)
    expect(section.startsWith(`${study002Text(charts, 'chroot')}\n`)).toBe(true)
    expect(section).toMatch(/^Relative throughput: Throughput: 64 MiB O_DIRECT write · % of chroot's throughput \(dd\.bandwidth, more is better\)$/m)
    expect(section).toMatch(/^chroot +\d[\d.]* [KMG]iB\/s +█+ +100 % \(baseline\)$/m)
    expect(section).toMatch(/^xen-pv +\d[\d.]* [KMG]iB\/s +█+ +\d+ % \[\d+–\d+\] \((slower|faster|same|can't tell)\)$/m)
    expect(section).toMatch(/^kvm-virtio +\d[\d.]* [mµn]s +█+ +\d+ % \[\d+–\d+\] \((slower|faster|same|can't tell)\)$/m)
  })
})
