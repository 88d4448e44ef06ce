import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { bonnieStudies, bonnieStudyText } from '../../../src/shared/studies/bonnie-study'
import { runCli, type CliResult } from '../../harness/cli'

const SECTION = "bonnie++ per machine (study 000's table)"

/**
 * Study 000's bonnie++ table through the CLI: the real bonnie++ (Debian's) on two "This computer"
 * targets, a host and a guest, with a tiny file. `virtbench run` prints, beside the overhead
 * table, one line per machine with bonnie++'s figures and %CPU, the guest's % of the host, and
 * "+++++" where bonnie++ could not time a test, exactly as the run document gives them.
 */
describe('virtbench run: study 000’s bonnie++ table', () => {
  let dir: string
  let dataDir: string
  const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--data-dir', dataDir])

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-000-bonnie-'))
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
  })

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('prints a line per machine with the figures of the run document, and says +++++ where bonnie++ printed it', { timeout: 300_000 }, async () => {
    for (const name of ['host', 'guest']) {
      const added = await cli(['targets', 'add', '--name', name, '--local'])
      expect(added.status, added.stderr).toBe(0)
    }
    const preset = path.join(dir, 'bonnie.json')
    writeFileSync(
      preset,
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        plan: {
          name: 'study 000 bonnie++',
          baseline: { target: 'host' },
          variants: [{ target: 'guest' }],
          tests: [{ id: 'bonnie', title: 'bonnie++ 64 MiB', tool: 'bonnie', params: { fileSize: '64', ramMiB: 32, numFiles: 0 } }],
          repetitions: 1,
          storage: { kind: 'directory', path: path.join(dir, 'work') }
        }
      })
    )
    const out = path.join(dir, 'out')
    const result = await cli(['run', preset, '--out', out, '--idle-seconds', '0'])
    expect(result.status, result.stdout + result.stderr).toBe(0)

    const run = describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8'))))
    const studies = bonnieStudies(run, compare(comparisonInputOf(run)))
    expect(studies).toHaveLength(1)
    const at = result.stdout.indexOf(`\n${SECTION}\n`)
    expect(at, result.stdout).toBeGreaterThan(0)
    const section = result.stdout.slice(at + SECTION.length + 2)
    expect(section.startsWith(bonnieStudyText(studies))).toBe(true)

    const [host, guest] = studies[0]!.rows
    expect([host!.machine, guest!.machine]).toEqual(['host', 'guest'])
    // per character, bonnie++ is slow enough to time at any size: a figure in B/s with its %CPU on both, the guest's with its %
    const putc = [host!.figures[0]!, guest!.figures[0]!]
    for (const f of putc) expect(f).toMatchObject({ id: 'putc', unit: 'B/s', runs: 1, tooFastRuns: 0 })
    expect(putc[0]!.value).toBeGreaterThan(0)
    expect(putc[1]!.relativePct).toBeCloseTo((putc[1]!.value! / putc[0]!.value!) * 100, 9)
    expect(section).toMatch(/^host\s+[\d.]+ [KM]iB\/s\s+[\d.]+ %/m)
    expect(section).toMatch(/^guest\s+[\d.]+ [KM]iB\/s \([\d.]+ %\)\s+[\d.]+ %/m)
    // a test bonnie++ could not time (the page cache holds a 64 MiB file): said so, with no number, in the table and its notes
    const tooFast = studies[0]!.rows.flatMap((r) => r.figures.filter((f) => f.missing === 'too-fast').map((f) => `${r.machine}:${f.id}`))
    for (const side of ['host', 'guest']) {
      const warned = run.jobs.find((j) => j.side === side)!.warnings.filter((w) => w.includes('bonnie++ printed +++++'))
      expect(tooFast.filter((t) => t.startsWith(`${side}:`)).map((t) => `bonnie.${t.slice(side.length + 1)} not measured`)).toEqual(
        warned.map((w) => w.slice(0, w.indexOf(':')))
      )
    }
    if (tooFast.length > 0) {
      expect(section).toContain('+++++ (too fast)')
      expect(section).toContain('the test took under 0.5 s, too fast to time, so there is no figure')
    }
  })
})
