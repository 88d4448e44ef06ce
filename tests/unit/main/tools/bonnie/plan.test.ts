import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bonnieTool } from '../../../../../src/main/tools/bonnie'
import { bonnieParamsSchema } from '../../../../../src/main/tools/bonnie/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/bonnie/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const ctx: PlanContext = { target: { os: 'linux', workDir: '/srv/virtbench/' } }

describe('bonnie++ plan', () => {
  it('runs study 000 (bonnie++ -s 50g -n 10 -x 10) in a dedicated folder of the work directory', () => {
    const p = plan(bonnieParamsSchema.parse({ fileSize: '50g', numFiles: 10, repetitions: 10 }), ctx)
    expect(p.steps).toHaveLength(1)
    const step = p.steps[0]!
    expect(step.argv).toEqual(['bonnie++', '-d', '/srv/virtbench/bonnie', '-s', '50g', '-n', '10', '-x', '10', '-u', '$(id -u)'])
    expect(step.script).toBe(
      'PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"; export PATH; mkdir -p -- /srv/virtbench/bonnie && ' +
        'bonnie++ -d /srv/virtbench/bonnie -s 50g -n 10 -x 10 -u "$(id -u)"'
    )
    expect(step).toMatchObject({ id: 'run', on: 'target', shell: 'sh', okExitCodes: [0], measured: true })
    expect(p.files).toEqual([{ on: 'target', path: '/srv/virtbench/bonnie' }])
    expect(step.timeoutSeconds).toBeGreaterThan(p.estimatedSeconds)
  })

  it("uses bonnie++'s own defaults: no -s (twice the RAM), -n 16, one run", () => {
    expect(bonnieTool.defaults).toEqual({ numFiles: 16, repetitions: 1, skipPerChar: false, directIo: false })
    expect(plan(bonnieTool.defaults, ctx).steps[0]!.argv).toEqual(['bonnie++', '-d', '/srv/virtbench/bonnie', '-n', '16', '-u', '$(id -u)'])
  })

  it('passes -r, -f, -D, a user and a tool path when asked', () => {
    const params = bonnieParamsSchema.parse({ fileSize: '64', ramMiB: 32, numFiles: 1, skipPerChar: true, directIo: true, runAs: 'nobody' })
    const step = plan(params, { target: { os: 'linux', workDir: '/w', toolPaths: { bonnie: '/opt/bonnie/sbin/bonnie++' } } }).steps[0]!
    expect(step.argv).toEqual(['/opt/bonnie/sbin/bonnie++', '-d', '/w/bonnie', '-s', '64', '-r', '32', '-n', '1', '-f', '-D', '-u', 'nobody'])
    expect(step.script).toBe('mkdir -p -- /w/bonnie && /opt/bonnie/sbin/bonnie++ -d /w/bonnie -s 64 -r 32 -n 1 -f -D -u nobody')
  })

  it('estimates more time for more data and more runs', () => {
    const small = estimateSeconds(bonnieParamsSchema.parse({ fileSize: '1g' }))
    const big = estimateSeconds(bonnieParamsSchema.parse({ fileSize: '50g' }))
    const study = estimateSeconds(bonnieParamsSchema.parse({ fileSize: '50g', numFiles: 10, repetitions: 10 }))
    expect(small).toBeLessThan(big)
    expect(study).toBeGreaterThan(9 * big)
    expect(Number.isInteger(study)).toBe(true)
  })

  it('refuses Windows targets and relative work directories with a reason', () => {
    expect(() => plan(bonnieTool.defaults, { target: { os: 'windows', workDir: 'C:\\vb' } })).toThrow(/Linux targets only/)
    expect(() => plan(bonnieTool.defaults, { target: { os: 'linux', workDir: 'scratch' } })).toThrow(/"scratch" is not an absolute path/)
  })
})

describe('bonnie++ params', () => {
  it.each([
    [{ fileSize: '50G' }, true],
    [{ fileSize: '2t' }, true],
    [{ fileSize: '1.5g' }, false],
    [{ fileSize: '50 g' }, false],
    [{ fileSize: '-1' }, false],
    [{ fileSize: '3000t' }, false],
    [{ fileSize: '0', numFiles: 0 }, false],
    [{ fileSize: '0g', numFiles: 0 }, false],
    [{ fileSize: '0', numFiles: 1 }, true],
    [{ numFiles: 2.5 }, false],
    [{ repetitions: 0 }, false],
    [{ directIo: true }, false],
    [{ directIo: true, skipPerChar: true }, true],
    [{ runAs: 'a b' }, false],
    [{ runAs: 'bench:disk' }, true]
  ])('%j valid: %s', (input, valid) => {
    expect(bonnieParamsSchema.safeParse(input).success).toBe(valid)
  })

  it('says what is wrong with a bad value', () => {
    const result = bonnieParamsSchema.safeParse({ fileSize: '1.5g' })
    expect(result.success).toBe(false)
    if (!result.success) expect(result.error.issues[0]?.message).toBe('fileSize must be a whole number of MiB, or a number followed by g or t (for example 50g)')
  })
})

describe('bonnie++ plan quoting, run by a real sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vb-bonnie-plan-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // A stand-in for bonnie++ that prints each argument it got, NUL-terminated.
  const stub = join(dir, 'print-args')
  writeFileSync(stub, '#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done\n')
  chmodSync(stub, 0o755)

  it.each(['$(touch pwned); rm -rf ~', "'; reboot #", '`touch pwned`', 'with space'])('keeps the work directory %j one argument', (hostile) => {
    const workDir = join(dir, hostile)
    const step = plan(bonnieParamsSchema.parse({ fileSize: '64', runAs: "';reboot#" }), { target: { os: 'linux', workDir, toolPaths: { bonnie: stub } } }).steps[0]!
    const out = execFileSync('/bin/sh', ['-c', step.script], { cwd: dir, encoding: 'utf8' })
    expect(out.split('\0').slice(0, -1)).toEqual(step.argv?.slice(1))
    expect(readdirSync(dir)).not.toContain('pwned')
  })

  it('gives -u the login uid when runAs is unset', () => {
    const step = plan(bonnieTool.defaults, { target: { os: 'linux', workDir: dir, toolPaths: { bonnie: stub } } }).steps[0]!
    const out = execFileSync('/bin/sh', ['-c', step.script], { cwd: dir, encoding: 'utf8' }).split('\0')
    expect(out.slice(-3, -1)).toEqual(['-u', String(process.getuid?.())])
  })
})
