import { describe, expect, it } from 'vitest'
import { estimatePack, formatDuration } from '../../../../src/main/tools/pack-estimate'
import { PACK_IDS, PACKS, packTests } from '../../../../src/main/tools/packs'
import { TOOLS } from '../../../../src/main/tools/registry'
import type { PlanContext } from '../../../../src/main/tools/types'

const ctx: PlanContext = {
  target: { os: 'linux', workDir: '/var/tmp/vb', cpuCount: 4 },
  peer: { os: 'linux', workDir: '/var/tmp/vb', address: '10.127.100.3' }
}

/** The measured command of one pack test, as it will run on the target. */
function measured(packId: keyof typeof PACKS, testId: string, form: 'full' | 'quick' = 'full'): string {
  const test = packTests(PACKS[packId], form).find((t) => t.id === testId)
  if (!test) throw new Error(`no test ${testId} in ${packId}`)
  const tool = TOOLS[test.tool]
  const steps = tool.plan(tool.params.parse(test.params), ctx).steps
  return steps.find((s) => s.measured)!.script
}

describe('packs', () => {
  it('has every pack the studies name, each with a full and a quick form of the same tests', () => {
    expect(Object.keys(PACKS).sort()).toEqual([...PACK_IDS].sort())
    for (const pack of Object.values(PACKS)) {
      expect(pack.tests.length).toBeGreaterThan(0)
      expect(pack.quick.map((t) => [t.id, t.tool])).toEqual(pack.tests.map((t) => [t.id, t.tool]))
      expect(new Set(pack.tests.map((t) => t.id)).size).toBe(pack.tests.length)
    }
  })

  it.each(PACK_IDS.flatMap((id) => packTests(PACKS[id], 'full').concat(packTests(PACKS[id], 'quick')).map((t) => [id, t.id, t] as const)))(
    '%s / %s: params are valid for its tool, and none is silently dropped',
    (_pack, _id, test) => {
      const tool = TOOLS[test.tool]
      const parsed = tool.params.parse(test.params) as Record<string, unknown>
      for (const [key, value] of Object.entries(test.params)) expect(parsed[key], key).toEqual(value)
      expect(tool.plan(parsed, ctx).steps.filter((s) => s.measured)).toHaveLength(1)
    }
  )

  it('runs the six fio jobs of study 001 exactly as written there', () => {
    const base = '--ioengine=posixaio'
    // the everyday set: each kind once, the quick form at 64 MiB and 3 s
    expect(measured('everyday', 'dd-throughput')).toContain('bs=256M count=1 oflag=direct')
    expect(measured('everyday', 'fio-4k-randwrite')).toContain('--rw=randwrite --bs=4k --size=256m --numjobs=1 --iodepth=16 --runtime=5 --time_based --direct=1')
    expect(measured('everyday', 'fio-4k-randread', 'quick')).toContain('--rw=randread --bs=4k --size=64m --numjobs=1 --iodepth=16 --runtime=3 --time_based --direct=1')
    expect(measured('everyday', 'iperf3')).toBe('iperf3 -c 10.127.100.3 -t 5 -J')
    expect(measured('everyday', 'sysbench-cpu', 'quick')).toContain('--time=3')
    expect(measured('everyday', 'ping')).toContain('10.127.100.3')
    expect(measured('cloud-acceptance', 'fio-4k-randread')).toBe(
      `fio --output-format=json --name=random-read ${base} --rw=randread --bs=4k --size=4g --numjobs=1 --iodepth=16 --runtime=60 --time_based --direct=1 --directory=/var/tmp/vb`
    )
    expect(measured('cloud-acceptance', 'fio-4k-randwrite')).toBe(
      `fio --output-format=json --name=random-write ${base} --rw=randwrite --bs=4k --size=4g --numjobs=1 --iodepth=16 --runtime=60 --time_based --direct=1 --end_fsync=1 --directory=/var/tmp/vb`
    )
    expect(measured('cloud-acceptance', 'fio-4k-read')).toContain('--name=random-read --ioengine=posixaio --rw=read --bs=4k --size=4g --numjobs=1 --iodepth=16 --runtime=60 --time_based --direct=1 ')
    expect(measured('cloud-acceptance', 'fio-4k-write')).toContain('--name=random-write --ioengine=posixaio --rw=write --bs=4k --size=4g --numjobs=1 --iodepth=16 --runtime=60 --time_based --direct=1 --end_fsync=1 ')
    expect(measured('cloud-acceptance', 'fio-1m-read')).toContain('--name=seq-read --ioengine=posixaio --rw=read --bs=1m --size=16g --numjobs=1 --iodepth=1 --runtime=60 --time_based --direct=1 ')
    expect(measured('cloud-acceptance', 'fio-1m-write')).toContain('--name=seq-write --ioengine=posixaio --rw=write --bs=1m --size=16g --numjobs=1 --iodepth=1 --runtime=60 --time_based --direct=1 --end_fsync=1 ')
  })

  it('runs study 001 UnixBench, mbw and iperf3 (best of three) as written', () => {
    expect(measured('cloud-acceptance', 'unixbench')).toMatch(/\.\/Run -c 1 whetstone-double dhry2reg fsdisk$/)
    expect(measured('cloud-acceptance', 'mbw')).toMatch(/; mbw 512$/)
    expect(measured('cloud-acceptance', 'iperf3')).toBe('iperf3 -c 10.127.100.3 -t 30 -J')
    expect(PACKS['cloud-acceptance'].tests.find((t) => t.id === 'iperf3')).toMatchObject({ repetitions: 3, aggregate: 'best' })
  })

  it('runs study 002 dd throughput and latency with O_DIRECT', () => {
    expect(measured('block-dd', 'dd-throughput')).toBe('cd /var/tmp/vb && LC_ALL=C dd if=/dev/zero of=ddfile bs=1G count=1 oflag=direct')
    expect(measured('block-dd', 'dd-latency')).toBe('cd /var/tmp/vb && LC_ALL=C dd if=/dev/zero of=ddfile bs=512 count=1000 oflag=direct')
  })

  it('runs study 003 as its job file', () => {
    const tool = TOOLS.fio
    const plan = tool.plan(tool.params.parse(PACKS['cluster-fio'].tests[0]!.params), ctx)
    const step = plan.steps.find((s) => s.measured)!
    expect(step.script).toBe('fio --output-format=json /var/tmp/vb/virtbench-virt.fio')
    const job = step.files![0]!.content
    for (const line of ['[virt]', 'ioengine=libaio', 'iodepth=4', 'rw=randrw', 'bs=64k', 'direct=1', 'size=1g', 'numjobs=4']) {
      expect(job.split('\n')).toContain(line)
    }
  })

  it('runs study 004 timed by the shell, and study 000 bonnie++, iozone, iperf -r and ping', () => {
    expect(measured('seq-dd', 'dd-write')).toContain(`time sh -c '\\''dd if=/dev/zero of=ddfile2 bs=8k count=1M'\\''`)
    expect(measured('seq-dd', 'cat-read')).toContain(`time sh -c '\\''cat ddfile2 > /dev/null'\\''`)
    expect(measured('kvm-storage', 'bonnie')).toMatch(/bonnie\+\+ -d \/var\/tmp\/vb\/bonnie -s 50g -n 10 -x 10 /)
    expect(measured('kvm-storage', 'iozone')).toMatch(/iozone -Raz -g 50G -b out\.wks$/)
    expect(measured('kvm-storage', 'iperf-tcp')).toMatch(/iperf -c 10\.127\.100\.3 -r/)
    expect(measured('kvm-storage', 'iperf-udp')).toMatch(/iperf -c 10\.127\.100\.3 -r -u/)
    expect(measured('kvm-storage', 'ping')).toBe('LC_ALL=C ping -c 10 10.127.100.3')
  })

  it('says how long each pack takes, and the quick forms are short', () => {
    for (const id of PACK_IDS) {
      const full = estimatePack(PACKS[id], 'full')
      const quick = estimatePack(PACKS[id], 'quick')
      expect(full.seconds).toBeGreaterThan(quick.seconds)
      expect(full.tests.map((t) => t.id)).toEqual(PACKS[id].tests.map((t) => t.id))
      for (const t of quick.tests) expect(t.seconds, `${id}/${t.id}`).toBeLessThanOrEqual(120)
    }
    expect(formatDuration(40)).toBe('about 40 s')
    expect(formatDuration(14 * 60)).toBe('about 14 min')
    expect(formatDuration(18 * 3600 + 23 * 60)).toBe('about 18 h 23 min')
  })
})
