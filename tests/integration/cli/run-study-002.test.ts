import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { study002Charts, study002Text } from '../../../src/shared/studies/study002'
import { runCli, type CliResult } from '../../harness/cli'

const SECTION = "Block device throughput and latency per machine (study 002's bars)"

/**
 * Study 002's bars through the CLI: its pack (block-dd, quick form, real dd with O_DIRECT) on three
 * "This computer" targets, a baseline and two variants. `virtbench run` prints, beside the overhead
 * table, the throughput and the latency chart as text, every machine a line, as the run document gives them.
 */
describe("virtbench run: study 002's throughput and latency bars", () => {
  let dir: string
  let dataDir: string
  const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--data-dir', dataDir])

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-002-'))
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
  })

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('prints one throughput and one latency chart with a line per machine, its figure, its % and interval', { timeout: 300_000 }, async () => {
    for (const name of ['chroot', 'xen-pv', 'kvm-virtio']) {
      const added = await cli(['targets', 'add', '--name', name, '--local'])
      expect(added.status, added.stderr).toBe(0)
    }
    const preset = path.join(dir, 'study002.json')
    writeFileSync(
      preset,
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        plan: {
          name: 'study 002 bars',
          baseline: { target: 'chroot' },
          variants: [{ target: 'xen-pv' }, { target: 'kvm-virtio' }],
          tests: [{ pack: 'block-dd', form: 'quick' }],
          repetitions: 2,
          storage: { kind: 'directory', path: path.join(dir, 'work') }
        }
      })
    )
    const out = path.join(dir, 'out')
    const result = await cli(['run', preset, '--out', out, '--idle-seconds', '0'])
    expect(result.status, result.stdout + result.stderr).toBe(0)

    const run = describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8'))))
    const charts = study002Charts(run, compare(comparisonInputOf(run)))
    expect(charts.map((c) => c.id)).toEqual(['throughput', 'latency'])
    const at = result.stdout.indexOf(`\n${SECTION}\n`)
    expect(at, result.stdout).toBeGreaterThan(0)
    const section = result.stdout.slice(at + SECTION.length + 2)
    expect(section.startsWith(`${study002Text(charts, 'chroot')}\n`)).toBe(true)
    expect(section).toMatch(/^Relative throughput: Throughput: 64 MiB O_DIRECT write · % of chroot's throughput \(dd\.bandwidth, more is better\)$/m)
    expect(section).toMatch(/^chroot +\d[\d.]* [KMG]iB\/s +█+ +100 % \(baseline\)$/m)
    expect(section).toMatch(/^xen-pv +\d[\d.]* [KMG]iB\/s +█+ +\d+ % \[\d+–\d+\] \((slower|faster|same|can't tell)\)$/m)
    expect(section).toMatch(/^kvm-virtio +\d[\d.]* [mµn]s +█+ +\d+ % \[\d+–\d+\] \((slower|faster|same|can't tell)\)$/m)
  })
})
