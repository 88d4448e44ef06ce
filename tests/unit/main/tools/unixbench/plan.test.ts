import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { unixbenchTool } from '../../../../../src/main/tools/unixbench'
import { unixbenchParamsSchema } from '../../../../../src/main/tools/unixbench/params'
import { estimateSeconds, plan, shellDir } from '../../../../../src/main/tools/unixbench/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const ctx: PlanContext = { target: { os: 'linux', workDir: '/srv/virtbench' } }

describe('UnixBench plan', () => {
  it('runs study 001 (./Run -c 1 whetstone-double dhry2reg fsdisk) by default, in ~/byte-unixbench/UnixBench', () => {
    const p = plan(unixbenchTool.defaults, ctx)
    const step = p.steps[0]!
    expect(step.argv).toEqual(['./Run', '-c', '1', 'whetstone-double', 'dhry2reg', 'fsdisk'])
    expect(step.script).toBe(
      'mkdir -p -- /srv/virtbench/unixbench/tmp /srv/virtbench/unixbench/results && cd -- "$HOME"/byte-unixbench/UnixBench && ' +
        'UB_TMPDIR=/srv/virtbench/unixbench/tmp UB_RESULTDIR=/srv/virtbench/unixbench/results ./Run -c 1 whetstone-double dhry2reg fsdisk'
    )
    expect(step).toMatchObject({ id: 'run', on: 'target', shell: 'sh', okExitCodes: [0], measured: true })
    expect(p.files).toEqual([{ on: 'target', path: '/srv/virtbench/unixbench' }])
    expect(step.timeoutSeconds).toBeGreaterThan(p.estimatedSeconds)
  })

  it('uses the UnixBench folder found on the target, or the one given, and passes -i and several -c', () => {
    const found = plan(unixbenchTool.defaults, { target: { ...ctx.target, toolPaths: { unixbench: '/opt/byte-unixbench/UnixBench' } } }).steps[0]!
    expect(found.script).toContain('cd -- /opt/byte-unixbench/UnixBench && ')
    const params = unixbenchParamsSchema.parse({ tests: ['index'], copies: [1, 8], iterations: 3, unixbenchDir: '/home/qa/UnixBench' })
    const step = plan(params, ctx).steps[0]!
    expect(step.argv).toEqual(['./Run', '-i', '3', '-c', '1', '-c', '8', 'index'])
    expect(step.script).toContain('cd -- /home/qa/UnixBench && ')
    expect(plan(unixbenchParamsSchema.parse({ tests: [], copies: [] }), ctx).steps[0]!.argv).toEqual(['./Run'])
  })

  it('estimates from the passes Run makes: study 001 about 5 minutes, the full index far more', () => {
    const study = estimateSeconds(unixbenchTool.defaults)
    // whetstone-double and dhry2reg: 10 passes of ~13 s; fsdisk: 3 passes of ~37 s.
    expect(study).toBe(10 + 10 * 13 + 10 * 13 + 3 * 37)
    expect(estimateSeconds(unixbenchParamsSchema.parse({ iterations: 1 }))).toBe(10 + 13 + 13 + 37)
    expect(estimateSeconds(unixbenchParamsSchema.parse({ tests: [], copies: [] }))).toBeGreaterThan(2 * 25 * 60)
  })

  it('refuses Windows targets and relative work directories', () => {
    expect(() => plan(unixbenchTool.defaults, { target: { os: 'windows', workDir: 'C:\\vb' } })).toThrow(/Linux targets only/)
    expect(() => plan(unixbenchTool.defaults, { target: { os: 'linux', workDir: 'vb' } })).toThrow(/not an absolute path/)
  })
})

describe('UnixBench params', () => {
  it.each([
    [{ tests: ['dhry2reg', 'index', 'fs'] }, true],
    [{ tests: ['dhry3'] }, false],
    [{ tests: ['$(reboot)'] }, false],
    [{ copies: [0] }, false],
    [{ copies: [1.5] }, false],
    [{ iterations: 0 }, false],
    [{ unixbenchDir: 'UnixBench' }, false],
    [{ unixbenchDir: '~/src/UnixBench' }, true]
  ])('%j valid: %s', (input, valid) => {
    expect(unixbenchParamsSchema.safeParse(input).success).toBe(valid)
  })

  it('names the test it does not know', () => {
    const result = unixbenchParamsSchema.safeParse({ tests: ['dhry3'] })
    expect(result.success).toBe(false)
    if (!result.success) expect(result.error.issues[0]?.message).toBe('"dhry3" is not a UnixBench test or test group')
  })
})

describe('UnixBench plan quoting, run by a real sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vb-unixbench-plan-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** A folder holding a stand-in ./Run that prints where it runs, its UB_ variables and its arguments. */
  function fakeUnixbench(name: string): string {
    const ub = join(dir, name)
    mkdirSync(ub, { recursive: true })
    writeFileSync(join(ub, 'Run'), '#!/bin/sh\nprintf "%s\\0" "$PWD" "$UB_TMPDIR" "$UB_RESULTDIR" "$@"\n')
    chmodSync(join(ub, 'Run'), 0o755)
    return ub
  }

  it.each(['$(touch pwned); rm -rf ~', "'; reboot #", '`touch pwned`'])('keeps hostile folders %j one argument each', (hostile) => {
    const ub = fakeUnixbench(`ub ${hostile}`)
    const workDir = join(dir, `work ${hostile}`)
    const step = plan(unixbenchParamsSchema.parse({ unixbenchDir: ub }), { target: { os: 'linux', workDir } }).steps[0]!
    const out = execFileSync('/bin/sh', ['-c', step.script], { cwd: dir, encoding: 'utf8' }).split('\0').slice(0, -1)
    expect(out).toEqual([ub, `${workDir}/unixbench/tmp`, `${workDir}/unixbench/results`, ...(step.argv?.slice(1) ?? [])])
    expect(readdirSync(dir)).not.toContain('pwned')
  })

  it('expands a leading ~ to $HOME and quotes the rest', () => {
    expect(shellDir('~/a b/$(x)')).toBe(`"$HOME"/'a b/$(x)'`)
    const home = join(dir, 'home')
    const ub = fakeUnixbench('home/my ub')
    const step = plan(unixbenchParamsSchema.parse({ unixbenchDir: '~/my ub' }), { target: { os: 'linux', workDir: join(dir, 'w') } }).steps[0]!
    const out = execFileSync('/bin/sh', ['-c', step.script], { cwd: dir, encoding: 'utf8', env: { ...process.env, HOME: home } }).split('\0')
    expect(out[0]).toBe(ub)
  })
})
