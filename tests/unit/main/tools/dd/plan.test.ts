import { describe, expect, it } from 'vitest'
import { ddParamsSchema, type DdParamsInput } from '../../../../../src/main/tools/dd/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/dd/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const ctx: PlanContext = { target: { os: 'linux', workDir: '/srv/virtbench' } }

function planFor(input: DdParamsInput, context: PlanContext = ctx) {
  return plan(ddParamsSchema.parse(input), context)
}

describe('dd plan: study 002 (raw device, O_DIRECT)', () => {
  it('throughput: dd if=/dev/zero of=/dev/vdb bs=1G count=1 oflag=direct, as root, nothing to clean up', () => {
    const p = planFor({ device: '/dev/vdb', deviceWriteConfirmed: true, blockSize: '1G', count: '1' })
    expect(p.steps).toHaveLength(1)
    expect(p.steps[0]).toMatchObject({
      id: 'write',
      on: 'target',
      shell: 'sh',
      argv: ['dd', 'if=/dev/zero', 'of=/dev/vdb', 'bs=1G', 'count=1', 'oflag=direct'],
      script: 'LC_ALL=C dd if=/dev/zero of=/dev/vdb bs=1G count=1 oflag=direct',
      okExitCodes: [0],
      measured: true,
      sudo: true
    })
    expect(p.files).toEqual([])
  })

  it('latency: dd if=/dev/zero of=/dev/vdb bs=512 count=1000 oflag=direct', () => {
    const p = planFor({ device: '/dev/vdb', deviceWriteConfirmed: true, blockSize: '512', count: '1000' })
    expect(p.steps[0]!.argv).toEqual(['dd', 'if=/dev/zero', 'of=/dev/vdb', 'bs=512', 'count=1000', 'oflag=direct'])
  })

  it('the same on a file in the work directory, listed for cleanup, without root', () => {
    const p = planFor({ blockSize: '512', count: '1000' })
    expect(p.steps[0]).toMatchObject({
      argv: ['dd', 'if=/dev/zero', 'of=ddfile', 'bs=512', 'count=1000', 'oflag=direct'],
      script: 'cd /srv/virtbench && LC_ALL=C dd if=/dev/zero of=ddfile bs=512 count=1000 oflag=direct',
      sudo: false
    })
    expect(p.files).toEqual([{ on: 'target', path: '/srv/virtbench/ddfile' }])
  })

  it('reads a device without writing it first', () => {
    const p = planFor({ mode: 'read', device: '/dev/vdb', blockSize: '1M', count: '1024' })
    expect(p.steps.map((s) => s.id)).toEqual(['read'])
    expect(p.steps[0]).toMatchObject({ argv: ['dd', 'if=/dev/vdb', 'of=/dev/null', 'bs=1M', 'count=1024', 'iflag=direct'], sudo: true })
    expect(p.files).toEqual([])
  })
})

describe('dd plan: study 004 (time sh -c "…")', () => {
  it('write: time sh -c "dd if=/dev/zero of=ddfile2 bs=8k count=1M", run by bash for its time keyword', () => {
    const p = planFor({ fileName: 'ddfile2', blockSize: '8k', count: '1M', direct: false, timer: 'bash' })
    expect(p.steps).toHaveLength(1)
    expect(p.steps[0]!.argv).toEqual(['time', 'sh', '-c', 'dd if=/dev/zero of=ddfile2 bs=8k count=1M'])
    expect(p.steps[0]!.script).toBe(`cd /srv/virtbench && LC_ALL=C bash -c 'time sh -c '\\''dd if=/dev/zero of=ddfile2 bs=8k count=1M'\\'''`)
    expect(p.files).toEqual([{ on: 'target', path: '/srv/virtbench/ddfile2' }])
  })

  it('write timed by GNU time -v', () => {
    const p = planFor({ fileName: 'ddfile2', blockSize: '8k', count: '1M', direct: false, timer: 'gnu-time' })
    expect(p.steps[0]!.argv).toEqual(['/usr/bin/time', '-v', 'sh', '-c', 'dd if=/dev/zero of=ddfile2 bs=8k count=1M'])
    expect(p.steps[0]!.script).toBe(`cd /srv/virtbench && LC_ALL=C /usr/bin/time -v sh -c 'dd if=/dev/zero of=ddfile2 bs=8k count=1M'`)
  })

  it('read: writes ddfile (1 MiB blocks, O_DIRECT), prints its size, then time sh -c "cat ddfile > /dev/null"', () => {
    const p = planFor({ mode: 'read', reader: 'cat', fileName: 'ddfile', blockSize: '8k', count: '1M', direct: false, timer: 'bash' })
    expect(p.steps.map((s) => s.id)).toEqual(['prepare', 'read'])
    const [prepare, read] = p.steps
    expect(prepare!.script).toBe(
      'cd /srv/virtbench && { LC_ALL=C dd if=/dev/zero of=ddfile bs=1M count=8192 oflag=direct || LC_ALL=C dd if=/dev/zero of=ddfile bs=1M count=8192 conv=fdatasync; }'
    )
    expect(prepare!.measured).toBeUndefined()
    expect(read!.argv).toEqual(['time', 'sh', '-c', 'cat ddfile > /dev/null'])
    expect(read!.script).toBe(
      `cd /srv/virtbench && stat -c 'virtbench-file-bytes: %s' ddfile && LC_ALL=C bash -c 'time sh -c '\\''cat ddfile > /dev/null'\\'''`
    )
    expect(read!.measured).toBe(true)
    expect(p.files).toEqual([{ on: 'target', path: '/srv/virtbench/ddfile' }])
  })

  it('read of the file an earlier test wrote: no prepare step, the file still listed for cleanup', () => {
    const p = planFor({ mode: 'read', reader: 'cat', fileName: 'ddfile2', direct: false, timer: 'bash', useExistingFile: true })
    expect(p.steps.map((s) => s.id)).toEqual(['read'])
    expect(p.steps[0]!.argv).toEqual(['time', 'sh', '-c', 'cat ddfile2 > /dev/null'])
    expect(p.files).toEqual([{ on: 'target', path: '/srv/virtbench/ddfile2' }])
  })

  it('read with dd after emptying the page cache (as root)', () => {
    const p = planFor({ mode: 'read', dropCaches: true, blockSize: '1M', count: '64' })
    expect(p.steps.map((s) => [s.id, s.sudo ?? false])).toEqual([
      ['prepare', false],
      ['drop-caches', true],
      ['read', false]
    ])
    expect(p.steps[1]!.script).toBe('sync && echo 3 > /proc/sys/vm/drop_caches')
    expect(p.steps[2]!.argv).toEqual(['dd', 'if=ddfile', 'of=/dev/null', 'bs=1M', 'count=64', 'iflag=direct'])
  })

  it('prepares a size that is not whole MiB with the test\'s own block size', () => {
    const p = planFor({ mode: 'read', blockSize: '512', count: '1000' })
    expect(p.steps[0]!.script).toContain('dd if=/dev/zero of=ddfile bs=512 count=1000 oflag=direct')
  })

  it('adds conv=fdatasync to a write when asked', () => {
    expect(planFor({ fdatasync: true, direct: false }).steps[0]!.argv).toEqual(['dd', 'if=/dev/zero', 'of=ddfile', 'bs=1M', 'count=1024', 'conv=fdatasync'])
  })
})

describe('dd plan: quoting and targets', () => {
  const hostile = ['$(touch pwned); rm -rf ~', "'; reboot #"]

  it.each(hostile)('quotes the file name %s at every level of the timed command', (name) => {
    const p = planFor({ fileName: name, timer: 'bash', direct: false })
    expect(p.steps[0]!.argv).toEqual(['time', 'sh', '-c', `dd if=/dev/zero ${shQuoted(`of=${name}`)} bs=1M count=1024`])
    expect(p.files).toEqual([{ on: 'target', path: `/srv/virtbench/${name}` }])
  })

  it('quotes a hostile work directory', () => {
    const p = planFor({}, { target: { os: 'linux', workDir: "/tmp/$(touch pwned); rm -rf ~/'x" } })
    expect(p.steps[0]!.script).toBe(`cd '/tmp/$(touch pwned); rm -rf ~/'\\''x' && LC_ALL=C dd if=/dev/zero of=ddfile bs=1M count=1024 oflag=direct`)
  })

  it('refuses Windows targets and a relative work directory', () => {
    expect(() => planFor({}, { target: { os: 'windows', workDir: 'C:\\vb' } })).toThrow(/Linux targets only/)
    expect(() => planFor({}, { target: { os: 'linux', workDir: 'scratch' } })).toThrow(/absolute path/)
  })
})

describe('dd estimateSeconds', () => {
  it('grows with the bytes copied and with O_DIRECT operations, and includes writing the file to read', () => {
    const small = estimateSeconds(ddParamsSchema.parse({ blockSize: '1M', count: '16' }))
    const large = estimateSeconds(ddParamsSchema.parse({ blockSize: '1M', count: '8192' }))
    const read = estimateSeconds(ddParamsSchema.parse({ mode: 'read', blockSize: '1M', count: '8192' }))
    // 1 s start-up + bytes at 200 MiB/s + 0.5 ms per O_DIRECT block (+ writing the file first).
    expect(small).toBe(Math.ceil(1 + 16 / 200 + 16 * 0.0005))
    expect(large).toBe(Math.ceil(1 + 8192 / 200 + 8192 * 0.0005))
    expect(read).toBe(Math.ceil(1 + 8192 / 200 + 8192 / 200 + 8192 * 0.0005))
    expect(estimateSeconds(ddParamsSchema.parse({ blockSize: '512', count: '100000' }))).toBeGreaterThan(
      estimateSeconds(ddParamsSchema.parse({ blockSize: '512', count: '100000', direct: false }))
    )
  })

  it('is what the plan reports, and the measured step allows much longer', () => {
    const params = ddParamsSchema.parse({ blockSize: '512', count: '1000' })
    const p = plan(params, ctx)
    expect(p.estimatedSeconds).toBe(estimateSeconds(params))
    expect(p.steps[0]!.timeoutSeconds).toBeGreaterThan(p.estimatedSeconds * 10)
  })
})

/** The POSIX-shell form of one argument, as the plan is expected to write it. */
function shQuoted(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}
