/**
 * The release workflow end to end (issue 19), with the built CLI on known-truth targets
 * (tests/harness/truth/, docs/known-truth.md): a preset with acceptance criteria is run twice,
 * the guest's CPU quota halved between the runs (what a bad kernel or qemu release would do).
 *
 * - OLD: host and guest both get 30 % of one CPU: the guest is at 100 %, "cpu at least 90 %"
 *   passes, `virtbench run` exits 0, the JUnit file has no failure;
 * - NEW: the guest gets 15 %: it is at 50 %, the criterion fails with its figures, `virtbench run`
 *   exits 3 and the JUnit file has one failure; `virtbench report --junit` says the same for an
 *   existing run (exit 4: its 3 is taken);
 * - `virtbench compare NEW OLD`: the guest's relative % moved to 50 % of what it was, called
 *   `regressed`, within a few points of the truth.
 *
 * The truth comes from the quotas (both targets pinned to one CPU, highest weight), so this holds
 * on a loaded 2-core machine; nothing depends on how long anything takes.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { checkJunit } from '../../harness/junit-xml'
import { runCli as cli, type CliResult } from '../../harness/cli'
import { cpuWrites, machineCgroupLayout, startTruthLab, type LimitedTarget, type TruthLab } from '../../harness/truth'

const MINUTES = 60_000
const HOST_PCT = 30
const OLD_GUEST_PCT = 30
const NEW_GUEST_PCT = 15
/** The truth of the change: the guest's share halved, so its relative % halves. */
const TRUTH_CHANGE_PCT = (NEW_GUEST_PCT / OLD_GUEST_PCT) * 100
const TOLERANCE_POINTS = 3

/** Sets a running target's CPU quota (the cgroup its sshd and every session are in). */
async function setCpuQuota(target: LimitedTarget, percentOfOneCpu: number): Promise<void> {
  const layout = machineCgroupLayout()
  for (const w of cpuWrites(layout.cpu.version, { percentOfOneCpu })) {
    await writeFile(path.join(layout.cpu.mountPoint, target.cgroup.name, w.file), w.value)
  }
}

describe('the release workflow: acceptance criteria, JUnit, exit 3 and a release comparison', () => {
  let lab: TruthLab
  let dir: string
  let dataDir: string
  let presetFile: string
  const oldDir = (): string => path.join(dir, 'old')
  const newDir = (): string => path.join(dir, 'new')
  let oldRun: CliResult
  let newRun: CliResult

  beforeAll(async () => {
    lab = await startTruthLab([
      { name: 'host', cpu: { percentOfOneCpu: HOST_PCT } },
      { name: 'guest', cpu: { percentOfOneCpu: OLD_GUEST_PCT } }
    ])
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-release-gate-'))
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
    // the preset names its targets: they come from the inventory, their host keys from known_hosts
    writeFileSync(path.join(dataDir, 'targets.json'), JSON.stringify({ kind: 'virtbench.targets', version: 1, data: { targets: lab.inventory } }))
    copyFileSync(lab.knownHostsFile, path.join(dataDir, 'known_hosts'))
    presetFile = path.join(dir, 'release-gate.json')
    writeFileSync(
      presetFile,
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        description: 'The guest keeps at least 90 % of its host, every release',
        plan: {
          name: 'release gate',
          baseline: { target: 'host' },
          variants: [{ target: 'guest' }],
          tests: [{ id: 'cpu', title: 'sysbench cpu', tool: 'sysbench', params: { test: 'cpu', threads: 1, timeSeconds: 2 } }],
          repetitions: 3,
          precision: { halfWidthPct: 2, maxRepetitions: 8 },
          storage: { kind: 'directory', path: lab.workDir },
          acceptance: {
            criteria: [
              { name: 'CPU at least 90 % of the host', scope: { category: 'cpu' }, atLeastPct: 90 },
              // passes on both runs; robust where "none inconclusive" on a twin would hang on a point of noise
              { scope: { test: 'cpu' }, atMostPct: 110 }
            ]
          }
        }
      })
    )
    oldRun = await cli(['run', presetFile, '--out', oldDir(), '--junit', path.join(dir, 'old.xml'), '--data-dir', dataDir])
    await setCpuQuota(lab.get('guest'), NEW_GUEST_PCT)
    newRun = await cli([
      'run', presetFile, '--out', newDir(), '--junit', path.join(dir, 'new.xml'), '--data-dir', dataDir,
      '--comparison', path.join(dir, 'new-comparison.json'), '--overhead-csv', path.join(dir, 'new-overhead.csv')
    ])
  }, 10 * MINUTES)

  afterAll(async () => {
    await lab?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('passes the criteria with the guest at its host\'s quota: exit 0, the verdicts printed, a JUnit file without failures', () => {
    expect(oldRun.status, oldRun.stdout + oldRun.stderr).toBe(0)
    expect(oldRun.stdout).toMatch(/^Acceptance: PASSED \(2 of 2 criteria passed\)$/m)
    expect(oldRun.stdout).toMatch(/^PASS {2}1\. CPU at least 90 % of the host: 1 of 1 figure passed$/m)
    expect(oldRun.stderr).toContain(`JUnit: ${path.join(dir, 'old.xml')}`)
    const { problems, root, cases } = checkJunit(readFileSync(path.join(dir, 'old.xml'), 'utf8'))
    expect(problems).toEqual([])
    expect(root.children[0]!.attributes).toMatchObject({ name: 'release gate', tests: '2', failures: '0', errors: '0' })
    expect(cases.map((c) => c.attributes.name)).toEqual(['1. CPU at least 90 % of the host', '2. primary figures (test cpu) at most 110 % of the baseline'])
  })

  it('fails the criterion once the guest lost half its CPU: exit 3, the failing figure printed and in the JUnit failure', () => {
    expect(newRun.status, newRun.stdout + newRun.stderr).toBe(3)
    expect(newRun.stdout).toContain('Run completed:')
    expect(newRun.stdout).toMatch(/^Acceptance: FAILED \(1 of 2 criteria passed\)$/m)
    expect(newRun.stdout).toMatch(/^FAIL {2}1\. CPU at least 90 % of the host: 1 of 1 figure failed$/m)
    expect(newRun.stdout).toMatch(/^ {8}guest, sysbench cpu sysbench\.cpu\.events: [45]\d(\.\d)? % \[95 % interval .*\], slower: below 90 %$/m)
    const { problems, root, cases } = checkJunit(readFileSync(path.join(dir, 'new.xml'), 'utf8'))
    expect(problems).toEqual([])
    expect(root.attributes).toMatchObject({ tests: '2', failures: '1', errors: '0' })
    const failure = cases[0]!.children.find((c) => c.name === 'failure')!
    expect(failure.attributes.message).toMatch(/^1 of 1 figure failed: guest, sysbench cpu sysbench\.cpu\.events: [45]\d(\.\d)? % \[95 % interval/)
    expect(cases[1]!.children.map((c) => c.name)).toEqual(['system-out'])
    // the pipeline's other outputs, written as virtbench report writes them
    const exported = JSON.parse(readFileSync(path.join(dir, 'new-comparison.json'), 'utf8')) as { rows: { variant: string; metric: string; verdict: string }[] }
    expect(exported.rows.find((r) => r.variant === 'guest' && r.metric === 'sysbench.cpu.events')?.verdict).toBe('slower')
    expect(readFileSync(path.join(dir, 'new-overhead.csv'), 'utf8')).toMatch(/^variant,/)
  })

  it('judges an existing run with virtbench report --junit (exit 4 when a criterion failed, 0 when none did)', async () => {
    const again = path.join(dir, 'again.xml')
    const failed = await cli(['report', newDir(), '--junit', again])
    expect(failed.status, failed.stderr).toBe(4)
    expect(failed.stderr).toMatch(/^Acceptance: FAILED/m)
    expect(checkJunit(readFileSync(again, 'utf8')).root.attributes).toMatchObject({ tests: '2', failures: '1' })
    const passed = await cli(['report', oldDir(), '--junit', '-'])
    expect(passed.status, passed.stderr).toBe(0)
    expect(checkJunit(passed.stdout).problems).toEqual([])
    // a run whose plan has no criteria cannot be judged
    const plain = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(oldDir(), 'run.json'), 'utf8')))
    const bare = path.join(dir, 'bare')
    mkdirSync(bare)
    writeFileSync(path.join(bare, 'run.json'), JSON.stringify({ ...plain, plan: { ...plain.plan, acceptance: undefined } }))
    const none = await cli(['report', bare, '--junit', path.join(dir, 'none.xml')])
    expect(none.status).toBe(2)
    expect(none.stderr).toMatch(/--junit writes one test case per acceptance criterion, and the run at .* has none/)
    // and virtbench run refuses --junit for a plan without criteria before it connects to anything
    const adHoc = await cli(['run', '--baseline', 'a=ssh://nobody@127.0.0.1:1', '--variant', 'b=ssh://nobody@127.0.0.1:2', '--pack', 'block-dd', '--out', path.join(dir, 'adhoc'), '--junit', path.join(dir, 'adhoc.xml')])
    expect(adHoc.status).toBe(2)
    expect(adHoc.stderr).toContain('--junit writes one test case per acceptance criterion, and the plan has none')
  })

  it('virtbench compare NEW OLD calls the halved guest regressed, at 50 % of its old relative % within a few points', async () => {
    const result = await cli(['compare', newDir(), oldDir(), '--json', '-'])
    expect(result.status, result.stderr).toBe(0)
    const release = JSON.parse(result.stdout) as {
      kind: string
      rows: { variant: string; metric: string; primary: boolean; older: { relativePct: number }; newer: { relativePct: number }; changePct: number; ciLow: number; ciHigh: number; verdict: string; reason: string }[]
      environment: { target: string; differences: unknown[] }[]
    }
    expect(release.kind).toBe('virtbench-release-comparison')
    const row = release.rows.find((r) => r.primary && r.metric === 'sysbench.cpu.events' && r.variant === 'guest')!
    const figures = `OLD ${row.older.relativePct} %, NEW ${row.newer.relativePct} %, change ${row.changePct} % [${row.ciLow}, ${row.ciHigh}]: ${row.reason}`
    // the two runs each at their truth
    expect(Math.abs(row.older.relativePct - 100), figures).toBeLessThanOrEqual(TOLERANCE_POINTS)
    expect(Math.abs(row.newer.relativePct - 50), figures).toBeLessThanOrEqual(TOLERANCE_POINTS)
    // and the change: halved, regressed, its interval holding the truth
    expect(Math.abs(row.changePct - TRUTH_CHANGE_PCT), figures).toBeLessThanOrEqual(TOLERANCE_POINTS)
    expect(row.verdict, figures).toBe('regressed')
    expect(row.ciLow, figures).toBeLessThanOrEqual(TRUTH_CHANGE_PCT + TOLERANCE_POINTS)
    expect(row.ciHigh, figures).toBeGreaterThanOrEqual(TRUTH_CHANGE_PCT - TOLERANCE_POINTS)
    expect(row.ciHigh, figures).toBeLessThan(100)
    // the same machines ran both: each target is listed with what changed on it
    expect(release.environment.map((e) => e.target)).toEqual(['host', 'guest'])
    console.log(`release comparison of the known truth (guest quota ${OLD_GUEST_PCT} % → ${NEW_GUEST_PCT} %): ${figures}`)

    const text = await cli(['compare', newDir(), oldDir(), '--fail-on-regression'])
    expect(text.status, text.stdout + text.stderr).toBe(3)
    expect(text.stdout).toMatch(/^guest against host: 1 regressed$/m)
    expect(text.stdout).toMatch(/^sysbench cpu · sysbench\.cpu\.events\s+\d+(\.\d)? %\s+\d+(\.\d)? %\s+\d+(\.\d)? % \[\d+(\.\d)? %…\d+(\.\d)? %\]\s+regressed$/m)
    expect(text.stdout).toMatch(/^Environment changes \(OLD → NEW\)$/m)

    const one = await cli(['compare', newDir()])
    expect(one.status).toBe(2)
    expect(one.stderr).toContain('give two runs: NEW (the newer) and OLD (the one to compare with)')
    const itself = await cli(['compare', newDir(), path.join(newDir(), 'run.json')])
    expect(itself.status).toBe(2)
    expect(itself.stderr).toContain('NEW and OLD are the same run')
  })
})
