import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { study001Tables, study001Text } from '../../../src/shared/studies/study001-tables'
import { runCli, type CliResult } from '../../harness/cli'

const SECTION = "CPU, memory and fio per machine (study 001's tables)"

/**
 * Study 001's own tables through the CLI: two tests of its pack (cloud-acceptance, quick form),
 * the 4 KiB random read (real fio) and mbw (real mbw), on two "This computer" targets, a host and
 * a guest. `virtbench run` prints, beside the overhead table, the memory table with the overhead
 * as the study defines it and the fio table per machine, exactly as the run document gives them.
 */
describe('virtbench run: study 001’s memory and fio tables', () => {
  let dir: string
  let dataDir: string
  const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--data-dir', dataDir])

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-001-tables-'))
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
  })

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('prints the memory overhead in MiB/s with its verdict, and the fio figures of each machine with the guest’s %', { timeout: 300_000 }, async () => {
    for (const name of ['host', 'guest']) {
      const added = await cli(['targets', 'add', '--name', name, '--local'])
      expect(added.status, added.stderr).toBe(0)
    }
    const preset = path.join(dir, 'study001.json')
    writeFileSync(
      preset,
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        plan: {
          name: 'study 001 tables',
          baseline: { target: 'host' },
          variants: [{ target: 'guest' }],
          tests: [{ pack: 'cloud-acceptance', form: 'quick', only: ['fio-4k-randread', 'mbw'] }],
          repetitions: 2,
          storage: { kind: 'directory', path: path.join(dir, 'work') }
        }
      })
    )
    const out = path.join(dir, 'out')
    const result = await cli(['run', preset, '--out', out, '--idle-seconds', '0'])
    expect(result.status, result.stdout + result.stderr).toBe(0)

    const run = describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8'))))
    const tables = study001Tables(run, compare(comparisonInputOf(run)))
    expect(tables.overhead.map((t) => t.id)).toEqual(['memory'])
    expect(tables.fio!.columns.map((c) => c.testId)).toEqual(['fio-4k-randread'])
    const at = result.stdout.indexOf(`\n${SECTION}\n`)
    expect(at, result.stdout).toBeGreaterThan(0)
    const section = result.stdout.slice(at + SECTION.length + 2)
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
