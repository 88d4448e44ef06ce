import { describe, expect, it } from 'vitest'
import { detectedDiskOf } from '../../../../src/main/api/plan-preflight'
import { dottedPath, pathOfProblem, reviewPlan, RUN_ID_PLACEHOLDER, type ReviewContext } from '../../../../src/main/api/plan-review'
import { IDLE_SECONDS } from '../../../../src/main/engine/before-jobs'
import { CHECKS_SECONDS, CLEANUP_SECONDS, CONNECT_SECONDS, PER_JOB_SECONDS } from '../../../../src/main/engine/planner'
import { TOOLS } from '../../../../src/main/tools/registry'
import { TargetSchema, type Target } from '../../../../src/shared/model/target'

const now = '2025-03-01T10:00:00.000Z'
const ssh = (id: string, name: string, user: string, extra: Record<string, unknown> = {}): Target =>
  TargetSchema.parse({ id, name, kind: 'ssh', role: 'host', address: `10.0.0.${id.length}`, user, auth: { method: 'agent' }, createdAt: now, updatedAt: now, ...extra })

const host = ssh('t-host', 'phys-01', 'root', { addresses: { private: '192.168.10.1' } })
const guest = ssh('t-guest', 'vm-01', 'ana', { role: 'guest', address: '10.0.0.42' })
const here = TargetSchema.parse({ id: 't-here', name: 'This computer', kind: 'local', role: 'host', createdAt: now, updatedAt: now })
const ctx = (over: Partial<ReviewContext> = {}): ReviewContext => ({ inventory: [host, guest, here], hasSudoPassword: () => false, localHome: '/home/me', ...over })

const plan = (over: Record<string, unknown> = {}) => ({
  name: 'release check',
  baseline: { target: 'phys-01' },
  variants: [{ target: 'vm-01', scenario: { cache: 'none' } }],
  tests: [{ id: 'dd', tool: 'dd', params: { blockSize: '1M', count: '4' } }],
  repetitions: 1,
  ...over
})

describe('plans:review: problems at the field they concern', () => {
  it('gives each shape problem of the plan its dotted path, one per field', () => {
    const review = reviewPlan(
      {
        name: '',
        baseline: {},
        variants: [{ target: 'vm-01', scenario: { cache: 'write-back' } }],
        tests: [{ pack: 'block-dd' }, { id: 'b', tool: 'fio', parms: {} }],
        storage: { kind: 'disk' }
      },
      ctx()
    )
    expect(review).toEqual({
      ok: false,
      jobs: [],
      seconds: 0,
      issues: [
        { path: 'name', message: 'a comparison needs a name' },
        { path: 'baseline.target', message: 'missing (expected string)' },
        { path: 'variants.0.scenario.cache', message: 'expected one of none, writeback, writethrough, directsync, unsafe, found "write-back"' },
        { path: 'tests.1.parms', message: 'unknown field (check its spelling; docs/presets.md lists the fields)' },
        { path: 'storage.kind', message: 'expected one of directory, device, found "disk"' }
      ]
    })
  })

  it('says a plan without tests or variants needs them', () => {
    const review = reviewPlan(plan({ variants: [], tests: [] }), ctx())
    expect(review.issues).toEqual([
      // the variants are checked with the whole plan (a sweep may stand for them), after the fields
      { path: 'tests', message: 'choose at least one test or pack' },
      { path: 'variants', message: 'a comparison needs at least one variant' }
    ])
  })

  it('names targets that are not in the inventory, run Windows, or lack a stored sudo password', () => {
    const windows = ssh('t-win', 'win-01', 'admin', { role: 'guest', os: { family: 'windows', detectedAt: now } })
    const sudo = ssh('t-sudo', 'peer-01', 'ops', { sudo: 'password' })
    const review = reviewPlan(plan({ variants: [{ target: 'nowhere' }, { target: 'WIN-01' }], network: { peer: 'peer-01' } }), ctx({ inventory: [host, guest, here, windows, sudo] }))
    expect(review.issues).toEqual([
      { path: 'variants.0.target', message: '"nowhere" is not among the targets (phys-01, vm-01, This computer, win-01, peer-01): choose one of them, or add it on the Targets screen' },
      { path: 'variants.1.target', message: 'win-01 runs Windows: runs measure Linux and other POSIX targets for now; choose another target' },
      { path: 'network.peer', message: 'peer-01 needs a sudo password, and none is stored: set it on the Targets screen' }
    ])
    const stored = reviewPlan(plan({ network: { peer: 'peer-01' } }), ctx({ inventory: [host, guest, sudo], hasSudoPassword: (t) => t.id === 't-sudo' }))
    expect(stored.issues).toEqual([])
  })

  it('puts tool parameter problems at tests.N.params.<field>, and unknown pack tests at tests.N.only.K', () => {
    const review = reviewPlan(
      plan({
        tests: [
          { pack: 'block-dd', form: 'quick', only: ['dd-latency', 'dd-fast'] },
          { id: 'dd', tool: 'dd', params: { blockSize: '12Q', device: '/dev/sda', deviceWriteConfirmed: true } },
          { id: 'fio', tool: 'fio', params: { iodepth: 0 } }
        ]
      }),
      ctx()
    )
    expect(review.ok).toBe(false)
    expect(review.issues.map((i) => i.path)).toEqual(['tests.0.only.1', 'tests.1.params.device', 'tests.1.params.deviceWriteConfirmed', 'tests.1.params.blockSize', 'tests.2.params.iodepth'])
    expect(review.issues[0]?.message).toBe('the quick pack block-dd has no test dd-fast (it has dd-throughput, dd-latency)')
    expect(review.issues[1]?.message).toMatch(/chosen as the plan's storage/)
    expect(review.issues[3]?.message).toMatch(/^blockSize must be a whole number/)
  })

  it('points a network path whose address the peer lacks at the variant\'s scenario', () => {
    const review = reviewPlan(plan({ variants: [{ target: 'vm-01', scenario: { network: 'eip' } }], tests: [{ id: 'tcp', tool: 'iperf3', params: { seconds: 2 } }] }), ctx())
    expect(review.issues).toEqual([
      { path: 'variants.0.scenario.network', message: 'iperf3 tcp on vm-01: phys-01 has no public (EIP) address: add it to the target, or choose another network path' }
    ])
  })
})

describe('plans:review: the jobs of a plan that can run', () => {
  it('lists the jobs in run order with each step\'s exact command and machine, and the estimated time', () => {
    const review = reviewPlan(plan({ tests: [{ id: 'dd', tool: 'dd', params: { blockSize: '1M', count: '4' } }, { id: 'tcp', tool: 'iperf3', params: { seconds: 2 } }] }), ctx())
    expect(review.issues).toEqual([])
    expect(review.ok).toBe(true)
    const dd = TOOLS.dd.estimateSeconds(TOOLS.dd.params.parse({ blockSize: '1M', count: '4' }))
    const iperf3 = TOOLS.iperf3.estimateSeconds(TOOLS.iperf3.params.parse({ seconds: 2 }))
    expect(review.jobs).toEqual([
      {
        id: 'j0001', testId: 'dd', title: 'dd', tool: 'dd', repetition: 1, target: 'phys-01', seconds: dd,
        steps: [{ on: 'phys-01', command: `cd '/root/virtbench-work/vb-${RUN_ID_PLACEHOLDER}-phys-01' && LC_ALL=C dd if=/dev/zero of=ddfile bs=1M count=4 oflag=direct`, measured: true }]
      },
      {
        id: 'j0002', testId: 'dd', title: 'dd', tool: 'dd', repetition: 1, target: 'vm-01', seconds: dd,
        steps: [{ on: 'vm-01', command: `cd '/home/ana/virtbench-work/vb-${RUN_ID_PLACEHOLDER}-vm-01' && LC_ALL=C dd if=/dev/zero of=ddfile bs=1M count=4 oflag=direct`, measured: true }]
      },
      {
        id: 'j0003', testId: 'tcp', title: 'iperf3 tcp', tool: 'iperf3', repetition: 1, target: 'phys-01', peer: 'vm-01', seconds: iperf3,
        steps: [
          { on: 'vm-01', command: 'iperf3 -s -1 --forceflush', measured: false },
          { on: 'phys-01', command: 'iperf3 -c 10.0.0.42 -t 2 -J', measured: true }
        ]
      },
      {
        id: 'j0004', testId: 'tcp', title: 'iperf3 tcp', tool: 'iperf3', repetition: 1, target: 'vm-01', peer: 'phys-01', seconds: iperf3,
        steps: [
          { on: 'phys-01', command: 'iperf3 -s -1 --forceflush', measured: false },
          // the peer's private address is used when it has one
          { on: 'vm-01', command: 'iperf3 -c 192.168.10.1 -t 2 -J', measured: true }
        ]
      }
    ])
    // the tools' own time, the engine's per job, the logins and checks with the idle gate (3 s for custom tests), the cleanup
    expect(review.seconds).toBe(Math.round(2 * dd + 2 * iperf3 + 4 * PER_JOB_SECONDS + CONNECT_SECONDS + Math.max(CHECKS_SECONDS, IDLE_SECONDS) + CLEANUP_SECONDS))
  })

  it('uses an absolute work directory as it is, and this computer\'s own home for "This computer"', () => {
    const review = reviewPlan(plan({ baseline: { target: 'this computer' }, storage: { kind: 'directory', path: '/srv/bench/' }, repetitions: 2, schedule: { order: 'grouped' } }), ctx())
    expect(review.jobs.map((j) => [j.target, j.repetition, j.steps[0]?.command.split(' && ')[0]])).toEqual([
      // one folder per target: two targets on one machine never share one
      ['This computer', 1, `cd '/srv/bench/vb-${RUN_ID_PLACEHOLDER}-this_computer'`],
      ['This computer', 2, `cd '/srv/bench/vb-${RUN_ID_PLACEHOLDER}-this_computer'`],
      ['vm-01', 1, `cd '/srv/bench/vb-${RUN_ID_PLACEHOLDER}-vm-01'`],
      ['vm-01', 2, `cd '/srv/bench/vb-${RUN_ID_PLACEHOLDER}-vm-01'`]
    ])
    const home = reviewPlan(plan({ baseline: { target: 'This computer' } }), ctx())
    expect(home.jobs[0]?.steps[0]?.command).toContain(`cd '/home/me/virtbench-work/vb-${RUN_ID_PLACEHOLDER}-this_computer'`)
  })

  it('quotes hostile values in the commands it shows', () => {
    const review = reviewPlan(plan({ storage: { kind: 'directory', path: "/tmp/x'; reboot #" } }), ctx())
    expect(review.jobs[0]?.steps[0]?.command).toBe(`cd '/tmp/x'\\''; reboot #/vb-${RUN_ID_PLACEHOLDER}-phys-01' && LC_ALL=C dd if=/dev/zero of=ddfile bs=1M count=4 oflag=direct`)
  })
})

describe('review helpers', () => {
  it('turns a planner problem into the field it concerns', () => {
    expect(pathOfProblem('tests[2] fio-4k (fio): bs: not a size')).toBe('tests.2')
    expect(pathOfProblem('iperf3: network.simultaneous needs network.peer')).toBe('network.peer')
    expect(pathOfProblem('fio-4k: cannot run on /dev/vdb: invalid')).toBe('storage.path')
    expect(pathOfProblem('something else')).toBe('tests')
  })

  it('writes document paths with dots', () => {
    expect(dottedPath('plan.variants[1].scenario.cache')).toBe('plan.variants.1.scenario.cache')
    expect(dottedPath('tests[0].params["odd key"]')).toBe('tests.0.params.odd key')
  })

  it('reads a guest\'s detected disk from its host\'s environment, else from the baseline\'s', () => {
    const environment = {
      'kvm-host': {
        capturedAt: now,
        guests: { 'vm-01-domain': { domain: 'vm-01-domain', disks: [{ device: 'vda', cache: 'none' as const, io: 'native', queues: 4, bus: 'virtio-blk', source: '/var/lib/libvirt/images/vm-01.qcow2', format: 'qcow2' }, { device: 'vdb', cache: 'writeback' as const }] } }
      }
    }
    const targets = [{ name: 'kvm-host', role: 'baseline' as const }, { name: 'vm-01', role: 'variant' as const }]
    const expected = { cache: 'none', io: 'native', queues: 4, bus: 'virtio-blk', source: '/var/lib/libvirt/images/vm-01.qcow2' }
    expect(detectedDiskOf({ name: 'vm-01', scenario: { domain: 'vm-01-domain' } }, targets, environment)).toEqual(expected)
    expect(detectedDiskOf({ name: 'vm-01', scenario: { domain: 'vm-01-domain' }, hostName: 'kvm-host' }, targets, environment)).toEqual(expected)
    expect(detectedDiskOf({ name: 'vm-01', scenario: { domain: 'other' } }, targets, environment)).toBeUndefined()
    expect(detectedDiskOf({ name: 'vm-01', scenario: {} }, targets, environment)).toBeUndefined()
  })
})
