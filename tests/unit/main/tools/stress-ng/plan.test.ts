import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { stressNgParamsSchema, type StressNgParamsInput } from '../../../../../src/main/tools/stress-ng/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/stress-ng/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const ctx: PlanContext = { target: { os: 'linux', workDir: '/srv/vb' } }

function planFor(input: StressNgParamsInput, context: PlanContext = ctx) {
  return plan(stressNgParamsSchema.parse(input), context)
}

describe('stress-ng plan', () => {
  it('cpu: one measured step that writes the YAML report in the work directory, prints it and keeps stress-ng’s exit status', () => {
    const p = planFor({})
    const yaml = '/srv/vb/stress-ng/stress-ng.yaml'
    expect(p.steps).toEqual([
      {
        id: 'run',
        on: 'target',
        shell: 'sh',
        script: `mkdir -p -- /srv/vb/stress-ng && rm -f -- ${yaml} && stress-ng --cpu 1 --cpu-method matrixprod --timeout 10s --metrics-brief --yaml ${yaml}; rc=$?; if [ -f ${yaml} ]; then cat -- ${yaml}; fi; exit "$rc"`,
        argv: ['stress-ng', '--cpu', '1', '--cpu-method', 'matrixprod', '--timeout', '10s', '--metrics-brief', '--yaml', yaml],
        timeoutSeconds: 131,
        okExitCodes: [0],
        measured: true
      }
    ])
    expect(p.files).toEqual([{ on: 'target', path: '/srv/vb/stress-ng' }])
    expect(p.estimatedSeconds).toBe(11)
  })

  it('vm: --vm-bytes, --vm-method and --vm-keep; workers 0 is one per CPU', () => {
    expect(planFor({ stressor: 'vm', workers: 0, vmBytes: '50%', vmMethod: 'read64', vmKeep: true, timeoutSeconds: 3 }).steps[0]!.argv).toEqual([
      'stress-ng',
      '--vm',
      '0',
      '--vm-bytes',
      '50%',
      '--vm-method',
      'read64',
      '--vm-keep',
      '--timeout',
      '3s',
      '--metrics-brief',
      '--yaml',
      '/srv/vb/stress-ng/stress-ng.yaml'
    ])
    // the cpu options are not the vm stressor's, and --vm-keep only when asked
    expect(planFor({ stressor: 'vm', cpuMethod: 'pi' }).steps[0]!.argv).not.toContain('--cpu-method')
    expect(planFor({ stressor: 'vm' }).steps[0]!.argv).not.toContain('--vm-keep')
    expect(planFor({ vmBytes: '1G' }).steps[0]!.argv).not.toContain('--vm-bytes')
  })

  it('runs a stress-ng found elsewhere, and the timeout allows for teardown after the run', () => {
    const p = planFor({ timeoutSeconds: 2 }, { target: { os: 'linux', workDir: '/srv/vb/', toolPaths: { 'stress-ng': '/opt/sng/bin/stress-ng' } } })
    expect(p.steps[0]!.argv?.[0]).toBe('/opt/sng/bin/stress-ng')
    expect(p.steps[0]!.timeoutSeconds).toBe(123)
    expect(p.files).toEqual([{ on: 'target', path: '/srv/vb/stress-ng' }])
    expect(estimateSeconds(stressNgParamsSchema.parse({ timeoutSeconds: 60 }))).toBe(61)
  })

  it('refuses other systems and a relative work directory, saying what to change', () => {
    expect(() => planFor({}, { target: { os: 'windows', workDir: 'C:\\vb' } })).toThrow('stress-ng runs on Linux targets only; pick a Linux target for this test')
    expect(() => planFor({}, { target: { os: 'linux', workDir: 'vb' } })).toThrow('the work directory "vb" is not an absolute path; set an absolute work directory for this target')
  })
})

describe('stress-ng plan quoting and exit status, run by a real sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vb-stress-ng-plan-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // Stand-ins for stress-ng: one writes its arguments (NUL-terminated) as the report into the file
  // after --yaml and exits 3; the other writes nothing and exits 1, as stress-ng does with a bad option.
  const writes = join(dir, 'writes-report')
  writeFileSync(writes, '#!/bin/sh\nfor a; do printf "%s\\0" "$a"; done >"$(for a; do :; done; printf %s "$a")"\nexit 3\n')
  const refuses = join(dir, 'refuses')
  writeFileSync(refuses, '#!/bin/sh\necho "cpu-method must be one of: all" >&2\nexit 1\n')
  chmodSync(writes, 0o755)
  chmodSync(refuses, 0o755)

  const run = (workDir: string, program: string) => {
    const step = plan(stressNgParamsSchema.parse({ stressor: 'vm', vmBytes: '64M' }), { target: { os: 'linux', workDir, toolPaths: { 'stress-ng': program } } }).steps[0]!
    const result = spawnSync('/bin/sh', ['-c', step.script], { cwd: dir, encoding: 'utf8' })
    return { step, result }
  }

  it.each(['$(touch pwned); rm -rf ~', "'; reboot #", '-n', 'a\nb', 'with space'])('keeps the work directory %j one argument, prints the report and passes the exit status on', (hostile) => {
    const workDir = join(dir, hostile)
    const { step, result } = run(workDir, writes)
    expect(result.stdout.split('\0').slice(0, -1)).toEqual(step.argv?.slice(1))
    expect(step.argv?.at(-1)).toBe(`${workDir}/stress-ng/stress-ng.yaml`)
    expect(result.status).toBe(3)
    expect(readdirSync(dir)).not.toContain('pwned')
  })

  it('prints no stale report when stress-ng refuses to run, and keeps its exit status and complaint', () => {
    const workDir = join(dir, 'stale')
    mkdirSync(join(workDir, 'stress-ng'), { recursive: true })
    writeFileSync(join(workDir, 'stress-ng', 'stress-ng.yaml'), '---\nmetrics:\n...\n')
    const { result } = run(workDir, refuses)
    expect([result.stdout, result.stderr, result.status]).toEqual(['', 'cpu-method must be one of: all\n', 1])
  })
})
