import { describe, expect, it } from 'vitest'
import { SweepSchema, ComparisonPlanSchema } from '../../../../src/shared/model/plan'
import { expandSweep, sweepSteps, sweptFactors } from '../../../../src/shared/sweep/expand'

const sweep = SweepSchema.parse({
  target: 'vm1',
  domain: 'vb-lab-sweep',
  scenario: { hypervisor: 'kvm', storage: 'file-qcow2' },
  factors: { queues: [1, 2], cache: ['none', 'writeback'] }
})

describe('expandSweep', () => {
  it('gives one variant per combination, the first factor (in the fixed order cache, io, queues...) changing slowest', () => {
    const variants = expandSweep(sweep)
    expect(variants.map((v) => v.label)).toEqual(['cache=none, queues=1', 'cache=none, queues=2', 'cache=writeback, queues=1', 'cache=writeback, queues=2'])
    expect(variants[1]).toEqual({
      label: 'cache=none, queues=2',
      values: { cache: 'none', queues: 2 },
      setup: { cache: 'none', queues: 2 },
      scenario: { hypervisor: 'kvm', storage: 'file-qcow2', domain: 'vb-lab-sweep', cache: 'none', queues: 2, setup: { cache: 'none', queues: 2 } }
    })
    expect(sweptFactors(sweep)).toEqual(['cache', 'queues'])
  })

  it('a bus factor moves the named data disk; disks limit cache, io and queues', () => {
    const bus = SweepSchema.parse({ target: 'vm1', domain: 'd', factors: { bus: ['virtio-blk', 'sata'], io: ['threads'] }, busDisk: 'vdc', disks: ['vdc'] })
    expect(expandSweep(bus).map((v) => v.setup)).toEqual([
      { io: 'threads', bus: { disk: 'vdc', to: 'virtio-blk' }, disks: ['vdc'] },
      { io: 'threads', bus: { disk: 'vdc', to: 'sata' }, disks: ['vdc'] }
    ])
    expect(expandSweep(bus)[1]!.scenario.bus).toBe('sata')
  })

  it('a storage factor points each named disk at its prepared disk of that backend, first of the factors, and labels the storage', () => {
    const swap = SweepSchema.parse({
      target: 'vm1',
      domain: 'd',
      factors: { cache: ['none'], storage: ['file-raw', 'lvm'] },
      storage: { vdb: { 'file-raw': '/var/lib/libvirt/images/d.raw', lvm: '/dev/vg0/bench' } }
    })
    expect(expandSweep(swap).map((v) => [v.label, v.setup, v.scenario.storage])).toEqual([
      ['storage=file-raw, cache=none', { storage: { backend: 'file-raw', sources: { vdb: '/var/lib/libvirt/images/d.raw' } }, cache: 'none' }, 'file-raw'],
      ['storage=lvm, cache=none', { storage: { backend: 'lvm', sources: { vdb: '/dev/vg0/bench' } }, cache: 'none' }, 'lvm']
    ])
  })
})

describe('sweepSteps', () => {
  it('grouped: each combination once with all its repetitions; interleaved: rounds of one repetition each', () => {
    expect(sweepSteps(3, 2, 'grouped')).toEqual([{ variant: 0, repetitions: 2 }, { variant: 1, repetitions: 2 }, { variant: 2, repetitions: 2 }])
    expect(sweepSteps(2, 2, 'interleaved').map((s) => `${s.variant}x${s.repetitions}`)).toEqual(['0x1', '1x1', '0x1', '1x1'])
  })
})

describe('sweep in a plan', () => {
  const plan = { name: 'p', baseline: { target: 'host' }, variants: [], tests: [{ pack: 'block-dd', form: 'quick' }] }

  it('takes the place of the variants; refuses an empty factor list, a repeated value, a bus without its disk', () => {
    expect(ComparisonPlanSchema.safeParse({ ...plan, sweep: { target: 'vm1', domain: 'd', factors: { cache: ['none'] } } }).success).toBe(true)
    const messages = (input: unknown) => ComparisonPlanSchema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    expect(messages(plan)).toEqual(['variants: a comparison needs at least one variant'])
    expect(messages({ ...plan, sweep: { target: 'vm1', domain: 'd', factors: {} } })).toEqual(['sweep.factors: sweep at least one factor'])
    expect(messages({ ...plan, sweep: { target: 'vm1', domain: 'd', factors: { queues: [2, 2] } } })).toEqual(['sweep.factors.queues: a value of queues appears twice'])
    expect(messages({ ...plan, sweep: { target: 'vm1', domain: 'd', factors: { bus: ['sata'] } } })).toEqual([
      'sweep.busDisk: sweeping the bus moves one data disk: name it in "busDisk" (its <target dev>, such as vdc)'
    ])
  })

  it('refuses a storage factor without prepared disks, a backend a disk has no path for, and paths that are not plain absolute paths', () => {
    const messages = (storage: unknown, factors: unknown = { storage: ['file-raw', 'lvm'] }) =>
      ComparisonPlanSchema.safeParse({ ...plan, sweep: { target: 'vm1', domain: 'd', factors, ...(storage ? { storage } : {}) } }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    expect(messages({ vdb: { 'file-raw': '/d.raw', lvm: '/dev/vg0/bench' } })).toBeUndefined()
    expect(messages(undefined)).toEqual([
      'sweep.storage: sweeping the storage backend points data disks at prepared disks: name each disk and its prepared disk per backend in "storage", such as { "vdb": { "file-raw": "/var/lib/libvirt/images/d.raw" } }'
    ])
    expect(messages({ vdb: { 'file-raw': '/d.raw' } })).toEqual([
      'sweep.storage.vdb: the storage factor has lvm, but vdb has no prepared disk for it: add "lvm": "/path/on/the/host" to storage.vdb, or remove lvm from the factor'
    ])
    expect(messages({ vdb: { 'file-raw': '/d.raw' } }, { cache: ['none'] })).toEqual(['sweep.storage: storage names prepared disks for the storage factor: add factors.storage (such as ["file-raw", "lvm"]), or remove storage'])
    expect(messages({ vdb: { 'file-raw': 'images/d.raw', lvm: "/dev/vg0/it's" } })).toEqual([
      'sweep.storage.vdb.file-raw: a prepared disk is named by its absolute path on the physical host, such as /var/lib/libvirt/images/bench.qcow2',
      'sweep.storage.vdb.lvm: a prepared disk\'s path has no quotes, backquotes, $, backslashes, newlines or other control characters'
    ])
    expect(messages({ vdb: { 'file-raw': '/d.raw\n', lvm: '/dev/../sda' } })?.map((m) => m.split(': ')[0])).toEqual(['sweep.storage.vdb.file-raw', 'sweep.storage.vdb.lvm'])
    expect(messages({ 'VDB!': { 'file-raw': '/d.raw', lvm: '/dev/vg0/b' } })?.[0]).toMatch(/^sweep\.storage\.VDB!: /)
  })

  it('a variant setup needs its domain', () => {
    const r = ComparisonPlanSchema.safeParse({ ...plan, variants: [{ target: 'vm1', scenario: { setup: { cache: 'none' } } }] })
    expect(r.error?.issues.map((i) => i.message)).toEqual(['a scenario setup is applied to a libvirt domain: name it in "domain"'])
  })
})
