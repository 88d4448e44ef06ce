import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { iozoneTool } from '../../../../../src/main/tools/iozone'
import { iozoneParamsSchema } from '../../../../../src/main/tools/iozone/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/iozone/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const ctx: PlanContext = { target: { os: 'linux', workDir: '/srv/virtbench' } }

describe('iozone plan', () => {
  it('runs study 000 (iozone -Raz -g 50G -b out.wks) in the iozone folder of the work directory', () => {
    const p = plan(iozoneParamsSchema.parse({ maxFileSize: '50G', spreadsheet: 'out.wks' }), ctx)
    const step = p.steps[0]!
    expect(p.steps).toHaveLength(1)
    expect(step.argv).toEqual(['iozone', '-Raz', '-g', '50G', '-b', 'out.wks'])
    expect(step.script).toBe('mkdir -p -- /srv/virtbench/iozone && cd -- /srv/virtbench/iozone && iozone -Raz -g 50G -b out.wks')
    expect(step).toMatchObject({ id: 'run', on: 'target', shell: 'sh', okExitCodes: [0], measured: true })
    expect(p.files).toEqual([
      { on: 'target', path: '/srv/virtbench/iozone/iozone.tmp' },
      { on: 'target', path: '/srv/virtbench/iozone/out.wks' },
      { on: 'target', path: '/srv/virtbench/iozone' }
    ])
    expect(step.timeoutSeconds).toBeGreaterThan(p.estimatedSeconds)
  })

  it('defaults to -Raz with iozone\'s own size range, and passes the size options and a tool path', () => {
    expect(iozoneTool.defaults).toEqual({ allRecordSizes: true })
    expect(plan(iozoneTool.defaults, ctx).steps[0]!.argv).toEqual(['iozone', '-Raz'])
    const params = iozoneParamsSchema.parse({ allRecordSizes: false, maxFileSize: '1g', minFileSize: '1m', minRecordSize: '4k', maxRecordSize: '1m' })
    const step = plan(params, { target: { os: 'linux', workDir: '/w', toolPaths: { iozone: '/opt/iozone/iozone' } } }).steps[0]!
    expect(step.argv).toEqual(['/opt/iozone/iozone', '-Ra', '-g', '1g', '-n', '1m', '-y', '4k', '-q', '1m'])
  })

  it('estimates the study run as far longer than the default one', () => {
    const byDefault = estimateSeconds(iozoneTool.defaults)
    const study = estimateSeconds(iozoneParamsSchema.parse({ maxFileSize: '50G' }))
    expect(study).toBeGreaterThan(50 * byDefault)
    expect(estimateSeconds(iozoneParamsSchema.parse({ maxFileSize: '64M', allRecordSizes: false }))).toBeLessThan(
      estimateSeconds(iozoneParamsSchema.parse({ maxFileSize: '64M' }))
    )
  })

  it('refuses Windows targets and relative work directories', () => {
    expect(() => plan(iozoneTool.defaults, { target: { os: 'windows', workDir: 'C:\\vb' } })).toThrow(/Linux targets only/)
    expect(() => plan(iozoneTool.defaults, { target: { os: 'linux', workDir: 'vb' } })).toThrow(/not an absolute path/)
  })
})

describe('iozone params', () => {
  it.each([
    [{ maxFileSize: '50G' }, true],
    [{ maxFileSize: '512' }, true],
    [{ maxFileSize: '1.5G' }, false],
    [{ maxFileSize: '0' }, false],
    [{ minFileSize: '2g', maxFileSize: '1g' }, false],
    [{ minRecordSize: '1m', maxRecordSize: '4k' }, false],
    [{ spreadsheet: '../out.wks' }, false],
    [{ spreadsheet: 'out.xls' }, true]
  ])('%j valid: %s', (input, valid) => {
    expect(iozoneParamsSchema.safeParse(input).success).toBe(valid)
  })
})

describe('iozone plan quoting, run by a real sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vb-iozone-plan-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // A stand-in for iozone that prints the folder it runs in and each argument, NUL-terminated.
  const stub = join(dir, 'print-args')
  writeFileSync(stub, '#!/bin/sh\nprintf "%s\\0" "$PWD" "$@"\n')
  chmodSync(stub, 0o755)

  it.each(['$(touch pwned); rm -rf ~', "'; reboot #", '-n', 'a\nb'])('keeps the work directory %j one argument and runs there', (hostile) => {
    const workDir = join(dir, hostile)
    const step = plan(iozoneParamsSchema.parse({ maxFileSize: '1m' }), { target: { os: 'linux', workDir, toolPaths: { iozone: stub } } }).steps[0]!
    const out = execFileSync('/bin/sh', ['-c', step.script], { cwd: dir, encoding: 'utf8' }).split('\0').slice(0, -1)
    expect(out).toEqual([`${workDir}/iozone`, ...(step.argv?.slice(1) ?? [])])
    expect(readdirSync(dir)).not.toContain('pwned')
  })
})
