import { describe, expect, it } from 'vitest'
import { sysbenchDefaults, sysbenchParamsSchema, sysbenchSizeBytes, type SysbenchParamsInput } from '../../../../../src/main/tools/sysbench/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/sysbench/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const ctx: PlanContext = { target: { os: 'linux', workDir: '/srv/vb' } }

function planFor(input: SysbenchParamsInput, context: PlanContext = ctx) {
  return plan(sysbenchParamsSchema.parse(input), context)
}

function issues(input: unknown): string[] {
  const r = sysbenchParamsSchema.safeParse(input)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('sysbench params', () => {
  it("defaults to sysbench's own: cpu test, 1 thread, 10 s, primes up to 10000", () => {
    expect(sysbenchDefaults).toMatchObject({ test: 'cpu', threads: 1, timeSeconds: 10, cpuMaxPrime: 10000, memoryBlockSize: '1K', fileTotalSize: '2G', fileNum: 128, fileTestMode: 'rndrw' })
  })

  it('reads sizes as sysbench does (powers of 1024)', () => {
    expect(sysbenchSizeBytes('1K')).toBe(1024)
    expect(sysbenchSizeBytes('16K')).toBe(16384)
    expect(sysbenchSizeBytes('2G')).toBe(2 ** 31)
    expect(sysbenchSizeBytes('512')).toBe(512)
    for (const bad of ['', '0', '1k', '1.5G', '1 G', '1KiB', '-1']) expect(sysbenchSizeBytes(bad)).toBeNull()
  })

  it('refuses values sysbench would refuse or that cannot work', () => {
    expect(issues({ threads: 0 })).toEqual(['threads: threads must be at least 1'])
    expect(issues({ memoryBlockSize: '1k' })).toEqual([expect.stringMatching(/^memoryBlockSize: .*like 1K or 1M/)])
    expect(issues({ memoryBlockSize: '2G', memoryTotalSize: '1G' })).toEqual(['memoryBlockSize: memoryBlockSize (2G) is larger than memoryTotalSize (1G)'])
    expect(issues({ fileTotalSize: '1M', fileNum: 128 })).toEqual([expect.stringMatching(/^fileTotalSize: .*smaller than one block \(16K\)/)])
    expect(issues({ fileTestMode: 'randomrw' })).toHaveLength(1)
  })
})

describe('sysbench plan', () => {
  it('cpu: one measured sysbench cpu … run', () => {
    const p = planFor({})
    expect(p.steps).toEqual([
      {
        id: 'run',
        on: 'target',
        shell: 'sh',
        script: 'sysbench cpu --threads=1 --time=10 --cpu-max-prime=10000 run',
        argv: ['sysbench', 'cpu', '--threads=1', '--time=10', '--cpu-max-prime=10000', 'run'],
        timeoutSeconds: 131,
        okExitCodes: [0],
        measured: true
      }
    ])
    expect(p.files).toEqual([])
  })

  it('memory: block size, total size, operation and access mode', () => {
    expect(planFor({ test: 'memory', threads: 2, memoryBlockSize: '1M', memoryOper: 'read', memoryAccessMode: 'rnd' }).steps[0]!.argv).toEqual([
      'sysbench',
      'memory',
      '--threads=2',
      '--time=10',
      '--memory-block-size=1M',
      '--memory-total-size=100G',
      '--memory-oper=read',
      '--memory-access-mode=rnd',
      'run'
    ])
  })

  it('fileio: prepare, run and cleanup in the work directory with the same files, which are listed for cleanup', () => {
    const p = planFor({ test: 'fileio', fileTotalSize: '32M', fileNum: 4, fileTestMode: 'rndrd', fileExtraFlags: 'direct', timeSeconds: 1 })
    expect(p.steps.map((s) => [s.id, s.script, s.measured ?? false])).toEqual([
      ['prepare', 'cd /srv/vb && sysbench fileio --file-total-size=32M --file-num=4 prepare', false],
      [
        'run',
        'cd /srv/vb && sysbench fileio --threads=1 --time=1 --file-total-size=32M --file-num=4 --file-block-size=16K --file-test-mode=rndrd --file-extra-flags=direct run',
        true
      ],
      ['cleanup', 'cd /srv/vb && sysbench fileio --file-total-size=32M --file-num=4 cleanup', false]
    ])
    expect(p.files).toEqual([0, 1, 2, 3].map((i) => ({ on: 'target', path: `/srv/vb/test_file.${i}` })))
  })

  it('quotes a hostile work directory and sysbench path', () => {
    const p = planFor(
      { test: 'fileio', fileNum: 1 },
      { target: { os: 'linux', workDir: "/tmp/'; reboot #", toolPaths: { sysbench: '/opt/$(touch pwned); rm -rf ~/sysbench' } } }
    )
    expect(p.steps[0]!.script).toBe(`cd '/tmp/'\\''; reboot #' && '/opt/$(touch pwned); rm -rf ~/sysbench' fileio --file-total-size=2G --file-num=1 prepare`)
    expect(p.files).toEqual([{ on: 'target', path: "/tmp/'; reboot #/test_file.0" }])
  })

  it('refuses Windows targets and, for fileio, a relative work directory', () => {
    expect(() => planFor({}, { target: { os: 'windows', workDir: 'C:\\vb' } })).toThrow(/Linux targets only/)
    expect(() => planFor({ test: 'fileio' }, { target: { os: 'linux', workDir: 'vb' } })).toThrow(/absolute path/)
  })

  it('estimates the run time, plus writing the files for fileio', () => {
    expect(estimateSeconds(sysbenchDefaults)).toBe(11)
    expect(estimateSeconds(sysbenchParamsSchema.parse({ test: 'fileio' }))).toBe(Math.ceil(1 + 10 + 2048 / 200 + 2))
  })
})
