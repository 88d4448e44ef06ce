import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi, type Api } from '../../../src/main/api/handlers'
import { RESTART_SECONDS } from '../../../src/main/api/sweep-estimate'
import type { DomainDiff, DomainList, SweepEstimate } from '../../../src/shared/scenario-contract'
import type { HostKeyQuestion } from '../../../src/shared/targets-contract'
import { freePort } from '../../harness/free-port'
import { startSshd, type SshdServer } from '../../harness/sshd'

/**
 * The scenario channels against a real physical host: sshd on loopback whose logins get a PATH
 * holding every program of this machine except virsh (a host without libvirt's client), a port
 * nobody listens on, and a host whose sudo password is not stored. What virsh answers on a real
 * libvirt host is the lab's (tests/integration/lab/sweep.test.ts); the editor and the diff are
 * unit-tested offline (tests/unit/main/scenario/).
 */

let dataDir: string
let api: Api
let noVirshPath: string
let host: SshdServer

async function call<T>(channel: Parameters<typeof dispatch>[1], payload: unknown): Promise<T> {
  const result = await dispatch(api.handlers, channel, payload)
  if (!result.ok) throw new Error(`${String(channel)}: ${result.error.message}`)
  return result.value as T
}

/** A directory of links to every program in the usual bin directories, virsh left out. */
async function pathWithoutVirsh(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-no-virsh-'))
  for (const bin of ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    const names = await fs.readdir(bin).catch(() => [] as string[])
    for (const name of names) {
      if (name === 'virsh') continue
      await fs.symlink(path.join(bin, name), path.join(dir, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error
      })
    }
  }
  return dir
}

beforeAll(async () => {
  noVirshPath = await pathWithoutVirsh()
  host = await startSshd({ extraConfig: [`SetEnv PATH=${noVirshPath}`] })
})

afterAll(async () => {
  await host?.stop()
  await fs.rm(noVirshPath, { recursive: true, force: true })
})

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-scenario-api-'))
  api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
  api.hub.subscribe((event, payload) => {
    if (event === 'hostkey:question') void dispatch(api.handlers, 'hostkey:decide', { requestId: (payload as HostKeyQuestion).requestId, decision: 'accept-once' })
  })
  await call('targets:add', {
    target: { kind: 'ssh', name: 'phys', role: 'host', address: '127.0.0.1', port: host.port, user: host.username, auth: { method: 'key', keyPath: host.privateKeyPath } }
  })
  await call('targets:add', { target: { kind: 'local', name: 'vm', role: 'guest' } })
})

afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
})

describe('scenario:listDomains and scenario:diff on a host without virsh', () => {
  it('the login really has no virsh, and the rest of the machine', async () => {
    // the premise of the tests below, checked through the same sshd
    const { sshExec } = await import('../../harness/sshd')
    const probe = await sshExec(host, 'command -v virsh; echo "rc=$?"; command -v sh mktemp cat')
    expect(probe.stdout).toContain('rc=1')
    expect(probe.stdout).toContain(`${noVirshPath}/sh`)
  })

  it('lists: names the host and says to install libvirt-clients', async () => {
    const list = await call<DomainList>('scenario:listDomains', { guest: 'vm', baseline: 'phys' })
    expect(list).toMatchObject({ ok: false, host: 'phys', problem: 'no-virsh' })
    expect((list as { message: string }).message).toBe(
      "phys has no virsh (virsh list --all --name found no such command): install libvirt-clients there, or choose the guest's real physical host"
    )
  })

  it('diffs: the same error before anything is read or changed', async () => {
    const diff = await call<DomainDiff>('scenario:diff', { guest: 'vm', baseline: 'phys', domain: 'guest-1', setups: [{ cache: 'none' }, { cache: 'writeback' }] })
    expect(diff).toEqual({
      ok: false,
      host: 'phys',
      problem: 'no-virsh',
      message: "phys has no virsh (virsh dominfo guest-1 found no such command): install libvirt-clients there, or choose the guest's real physical host"
    })
  })

  it('a guest whose host is in the inventory is asked there, not at the baseline', async () => {
    const phys = (await call<{ targets: { target: { id: string; name: string } }[] }>('targets:list', undefined)).targets.find((t) => t.target.name === 'phys')!
    await call('targets:add', { target: { kind: 'local', name: 'vm-2', role: 'guest', hostId: phys.target.id } })
    const list = await call<DomainList>('scenario:listDomains', { guest: 'vm-2' })
    expect(list).toMatchObject({ ok: false, host: 'phys', problem: 'no-virsh' })
  })
})

describe('scenario:listDomains: the host cannot be asked', () => {
  it('a host nobody listens on is unreachable, named, with what to do', async () => {
    const port = await freePort()
    await call('targets:add', { target: { kind: 'ssh', name: 'gone', role: 'host', address: '127.0.0.1', port, user: host.username, auth: { method: 'key', keyPath: host.privateKeyPath } } })
    const list = await call<DomainList>('scenario:listDomains', { guest: 'vm', baseline: 'gone' })
    expect(list).toMatchObject({ ok: false, host: 'gone', problem: 'unreachable' })
    expect((list as { message: string }).message).toMatch(/^gone could not be reached to ask libvirt: .+ Test the connection on the Targets screen\.$/)
  })

  it('a host whose sudo password is not stored: sudo, before connecting', async () => {
    await call('targets:add', {
      target: { kind: 'ssh', name: 'locked', role: 'host', address: '127.0.0.1', port: host.port, user: host.username, auth: { method: 'key', keyPath: host.privateKeyPath }, sudo: 'password' }
    })
    const list = await call<DomainList>('scenario:listDomains', { guest: 'vm', baseline: 'locked' })
    expect(list).toEqual({
      ok: false,
      host: 'locked',
      problem: 'sudo',
      message: 'locked runs virsh through sudo and needs a sudo password, and none is stored: set it on the Targets screen'
    })
  })

  it('a guest without a physical host', async () => {
    const list = await call<DomainList>('scenario:listDomains', { guest: 'vm' })
    expect(list).toMatchObject({ ok: false, problem: 'no-host' })
    expect(list).not.toHaveProperty('host')
    expect((list as { message: string }).message).toBe("vm has no physical host to ask libvirt: set the guest's host on the Targets screen, or choose its host as the baseline")
  })
})

describe('scenario channels: requests are checked before a handler runs', () => {
  it.each([
    ['scenario:listDomains', {}, 'guest'],
    ['scenario:listDomains', { guest: 'vm', extra: 1 }, '(payload)'],
    ['scenario:diff', { guest: 'vm', domain: 'a/b', setups: [{}] }, 'domain'],
    ['scenario:diff', { guest: 'vm', domain: 'd', setups: [] }, 'setups'],
    ['scenario:diff', { guest: 'vm', domain: 'd', setups: [{ cache: 'fast' }] }, 'setups.0.cache'],
    ['scenario:diff', { guest: 'vm', domain: 'd', setups: [{ queues: 0 }] }, 'setups.0.queues'],
    ['scenario:diff', { guest: 'vm', domain: 'd', setups: [{ rm: '-rf' }] }, 'setups.0'],
    ['scenario:estimate', { plan: 'x' }, 'plan']
  ] as const)('%s refuses %j at %s', async (channel, payload, where) => {
    const result = await dispatch(api.handlers, channel, payload)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('invalid-request')
    expect(result.error.issues?.map((i) => i.path)).toContain(where)
  })
})

describe('scenario:estimate', () => {
  const plan = (sweep: Record<string, unknown>) => ({
    name: 'sweep',
    baseline: { target: 'phys' },
    variants: [],
    tests: [{ pack: 'block-dd', form: 'quick' }],
    repetitions: 2,
    sweep: { target: 'vm', domain: 'guest-1', ...sweep }
  })

  it('counts each step as a run and a restart per step plus the restore', async () => {
    const grouped = await call<SweepEstimate>('scenario:estimate', { plan: plan({ factors: { cache: ['none', 'writeback'], queues: [1, 2] } }) })
    expect(grouped.ok).toBe(true)
    if (!grouped.ok) return
    expect(grouped.steps.map((s) => s.label)).toEqual(['cache=none, queues=1', 'cache=none, queues=2', 'cache=writeback, queues=1', 'cache=writeback, queues=2'])
    expect(grouped.restarts).toBe(5)
    expect(grouped.restartSeconds).toBe(RESTART_SECONDS)
    expect(grouped.seconds).toBe(grouped.steps.reduce((sum, s) => sum + s.seconds, 0) + 5 * RESTART_SECONDS)
    // the steps measure the same tests: each is the same run
    expect(new Set(grouped.steps.map((s) => s.seconds)).size).toBe(1)

    // interleaved: one repetition of each combination per round, two rounds
    const interleaved = await call<SweepEstimate>('scenario:estimate', { plan: plan({ factors: { cache: ['none', 'writeback'], queues: [1, 2] }, order: 'interleaved' }) })
    expect(interleaved.ok && interleaved.steps.length).toBe(8)
    expect(interleaved.ok && interleaved.restarts).toBe(9)
    expect(interleaved.ok && interleaved.steps[0]!.jobs).toBe(grouped.steps[0]!.jobs / 2)
  })

  it('names the problem of a sweep that cannot be expanded', async () => {
    const bad = await call<SweepEstimate>('scenario:estimate', { plan: plan({ factors: { bus: ['sata'] } }) })
    expect(bad).toEqual({ ok: false, issues: [{ path: 'sweep.busDisk', message: expect.stringMatching(/name it in "busDisk"/) }] })
  })
})

describe('scenario:listDomains and scenario:diff through real virsh (libvirt\'s test driver)', () => {
  // libvirt's own in-process test driver (test:///default): one running domain, "test", with a
  // virtio disk vda, 2 vCPUs and a network interface; every virsh call starts from that state
  let libvirtHost: SshdServer
  beforeAll(async () => {
    libvirtHost = await startSshd({ extraConfig: ['SetEnv LIBVIRT_DEFAULT_URI=test:///default'] })
  })
  afterAll(async () => {
    await libvirtHost?.stop()
  })
  beforeEach(async () => {
    await call('targets:add', {
      target: { kind: 'ssh', name: 'kvm-host', role: 'host', address: '127.0.0.1', port: libvirtHost.port, user: libvirtHost.username, auth: { method: 'key', keyPath: libvirtHost.privateKeyPath } }
    })
  })

  it('lists the host\'s domains', async () => {
    expect(await call<DomainList>('scenario:listDomains', { guest: 'vm', baseline: 'kvm-host' })).toEqual({ ok: true, host: 'kvm-host', domains: ['test'] })
  })

  it('diffs each setup against the domain as the host has it, and names what the domain cannot take', async () => {
    const diff = await call<DomainDiff>('scenario:diff', { guest: 'vm', baseline: 'kvm-host', domain: 'test', setups: [{ cache: 'none', queues: 2 }, { vcpus: 2 }, { queues: 4 }] })
    expect(diff.ok).toBe(true)
    if (!diff.ok) return
    const [cacheQueues, same, tooMany] = diff.setups
    expect(cacheQueues).toEqual({
      ok: true,
      // the driver goes first in the disk, where libvirt writes it, indented as its siblings; nothing else moves
      diff: ['@@ line 16 @@', "      <disk type='file' device='disk'>", "+       <driver name='qemu' cache='none' queues='2'/>", "        <source file='/guest/diskimage1'/>"].join('\n'),
      changes: [{ what: 'vda driver', from: '(unset)', to: 'cache=none queues=2' }],
      restarts: ['test restarts: the new vda driver takes effect at its next boot']
    })
    expect(same).toEqual({ ok: true, diff: '', changes: [], restarts: [] })
    expect(tooMany).toEqual({
      ok: false,
      errors: ['queues=4 is more than the 2 vCPUs of domain test (Linux uses at most one queue per vCPU): ask for at most 2 queues, or add vcpus: 4']
    })
  })

  it('tells the estimate which steps need no restart from the domain\'s XML: vCPUs within the maximum applied live', async () => {
    const plan = (domain: string) => ({
      name: 'sweep',
      baseline: { target: 'kvm-host' },
      variants: [],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      repetitions: 1,
      sweep: { target: 'vm', domain, factors: { vcpus: [2, 1] } }
    })
    const live = await call<SweepEstimate>('scenario:estimate', { plan: plan('test') })
    expect(live).toMatchObject({
      ok: true,
      restartsFrom: 'domain',
      steps: [
        { label: 'vcpus=2', change: 'none' },
        { label: 'vcpus=1', change: 'live', live: ['vCPUs: 2 -> 1, applied live, no restart'] }
      ],
      restore: 'live',
      restarts: 0
    })
    expect(live.ok && live.seconds).toBe(live.ok && live.steps[0]!.seconds + live.steps[1]!.seconds)
    // a domain the host does not have: every step counted a restart, and why the domain was not read
    const unread = await call<SweepEstimate>('scenario:estimate', { plan: plan('nope') })
    expect(unread).toMatchObject({ ok: true, restartsFrom: 'plan', restarts: 3, domainNote: "kvm-host has no libvirt domain named nope (virsh said: failed to get domain 'nope'): check the domain name (virsh list --all on kvm-host)" })
  })

  it('a domain the host does not have', async () => {
    const diff = await call<DomainDiff>('scenario:diff', { guest: 'vm', baseline: 'kvm-host', domain: 'nope', setups: [{ cache: 'none' }] })
    expect(diff).toMatchObject({ ok: false, host: 'kvm-host', problem: 'no-domain' })
    expect((diff as { message: string }).message).toMatch(/^kvm-host has no libvirt domain by that name \(virsh dominfo nope: .+\): pick the domain from the host's list$/)
  })
})

describe('runs:start and the consent to change domains', () => {
  const plan = (extra: Record<string, unknown>) => ({
    name: 'setup',
    baseline: { target: 'phys' },
    variants: [{ target: 'vm', scenario: { domain: 'guest-1', setup: { cache: 'none' } } }],
    tests: [{ pack: 'block-dd', form: 'quick' }],
    repetitions: 1,
    ...extra
  })

  it('refuses a plan that changes a domain without the consent, with the CLI\'s sentence, before anything runs', async () => {
    const refused = await dispatch(api.handlers, 'runs:start', { plan: plan({}) })
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message:
          'the plan changes the libvirt domain guest-1 (vm) on the physical host: VirtBench saves the original XML in the run folder, applies each scenario with a restart of the guest, and puts the original back at the end. Give your consent (the review step\'s box "VirtBench will edit and restart…") to allow it.'
      }
    })
    const list = await call<{ runs: unknown[] }>('runs:list', undefined)
    expect(list.runs).toEqual([])
  })

  it('a sweep without the consent is refused before anything runs (tests/integration/scenario/sweep-store.test.ts runs one with it)', async () => {
    const sweep = await dispatch(api.handlers, 'runs:start', { plan: plan({ variants: [], sweep: { target: 'vm', domain: 'guest-1', factors: { cache: ['none', 'writeback'] } } }) })
    expect(sweep).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/guest-1/) } })
    const list = await call<{ runs: unknown[] }>('runs:list', undefined)
    expect(list.runs).toEqual([])
  })

  it('with the consent, the run applies the setup through the host, and a host without virsh fails it before any job', async () => {
    const started = await call<{ id: string }>('runs:start', { plan: plan({ storage: { kind: 'directory', path: path.join(dataDir, 'work') } }), changeDomains: true })
    for (let i = 0; i < 1200; i++) {
      const list = await call<{ active: string[] }>('runs:list', undefined)
      if (!list.active.includes(started.id)) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const run = await call<{ status: string; error?: string; jobs: { status: string }[] }>('runs:get', { id: started.id })
    expect(run.status).toBe('failed')
    // the words are src/main/scenario's; what counts here: the host, the domain, and no virsh
    expect(run.error).toMatch(/phys/)
    expect(run.error).toMatch(/guest-1/)
    expect(run.error).toMatch(/no virsh|virsh is not installed/)
    expect(run.jobs.every((j) => j.status !== 'succeeded' && j.status !== 'failed')).toBe(true)
  })
})
