/**
 * Bad input for a domain change, without the lab: the physical host is the harness sshd, and its
 * virsh talks to libvirt's test driver (LIBVIRT_DEFAULT_URI=test:///default: a running domain
 * "test" with 2 vCPUs and one virtio disk). A domain that does not exist, a sweep value the domain
 * cannot take, a host without virsh on its PATH, and sudo refusing virsh: each is a clear error
 * naming the host and what to do, given before anything changes (no original saved, no define).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkDomainSetup } from '../../../src/main/scenario/apply'
import type { SshSession } from '../../../src/main/ssh/session'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { runCli } from '../../harness/cli'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { connectClient, createThrowawayUser, sessionFor, type ThrowawayUser } from '../ssh/session-helpers'

describe('a domain change refused before anything changes', () => {
  let withVirsh: SshdServer
  let noVirsh: SshdServer
  let user: ThrowawayUser
  let scratch: string
  const sessions: SshSession[] = []
  const session = (server: SshdServer, username?: string): SshSession => {
    const s = sessionFor(server, { label: 'phys', ...(username ? { connect: () => connectClient(server, { username }) } : {}) })
    sessions.push(s)
    return s
  }

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'vb-domain-refusals-'))
    // a PATH with every program of /usr/bin but virsh
    const bin = path.join(scratch, 'bin')
    mkdirSync(bin)
    for (const name of readdirSync('/usr/bin')) if (name !== 'virsh') symlinkSync(path.join('/usr/bin', name), path.join(bin, name))
    user = createThrowawayUser()
    ;[withVirsh, noVirsh] = await Promise.all([
      // SetEnv before the throwaway user's Match block, so that it applies to every login
      startSshd({ extraConfig: ['SetEnv LIBVIRT_DEFAULT_URI=test:///default', ...user.sshdConfig] }),
      startSshd({ extraConfig: [`SetEnv PATH=${bin}:/usr/sbin:/sbin`] })
    ])
    user.authorize(withVirsh)
  })

  afterAll(async () => {
    await Promise.allSettled(sessions.map((s) => s.close()))
    await Promise.allSettled([withVirsh?.stop(), noVirsh?.stop()])
    user?.remove()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('reads a domain that exists, and refuses one that does not, naming the host and how to list its domains', async () => {
    const host = { label: 'phys', session: session(withVirsh), sudo: false as const }
    const ok = await checkDomainSetup(host, 'test', { vcpus: 1 })
    expect(ok.changes.map((c) => `${c.what}: ${c.from} -> ${c.to}`)).toEqual(['vCPUs: 2 -> 1'])
    await expect(checkDomainSetup(host, 'vb-nope', { cache: 'none' })).rejects.toThrow(
      "phys has no libvirt domain named vb-nope (virsh said: failed to get domain 'vb-nope'): check the domain name (virsh list --all on phys)"
    )
  })

  it('refuses a host without virsh, saying to install libvirt-clients there', async () => {
    const host = { label: 'phys', session: session(noVirsh), sudo: false as const }
    await expect(checkDomainSetup(host, 'test', { cache: 'none' })).rejects.toThrow(
      'phys has no virsh, so VirtBench cannot read or change domain test there: install libvirt-clients on phys (libvirt-client on Fedora and RHEL), or make the machine that runs the guest its host in the inventory. Nothing was changed.'
    )
  })

  it('refuses a host whose sudo will not run virsh, saying what to set on the target', async () => {
    const host = { label: 'phys', session: session(withVirsh, user.name), sudo: { mode: 'passwordless' as const } }
    const error = await checkDomainSetup(host, 'test', { cache: 'none' }).then(
      () => undefined,
      (e: unknown) => e as Error
    )
    expect(error?.message).toMatch(/^virsh could not run through sudo on phys, so domain test was not read or changed: sudo on phys needs a password \(sudo -n true said: .*a password is required.*\); enter the sudo password in the target settings, or allow this user NOPASSWD\. Or let the login user use libvirt without sudo \(the libvirt group\) and set the target's sudo to none\.$/)
  })

  it('virtbench run: a sweep of a domain that does not exist, or with a value the domain cannot take, stops before its first change', async () => {
    const dataDir = path.join(scratch, 'data')
    mkdirSync(dataDir)
    const now = new Date().toISOString()
    const target = (name: string, role: 'host' | 'guest', i: number): Record<string, unknown> => ({
      id: `t${i}`, kind: 'ssh', name, role, address: '127.0.0.1', port: withVirsh.port, user: os.userInfo().username,
      auth: { method: 'key', keyPath: withVirsh.privateKeyPath, hasPassphrase: false }, addresses: {}, sudo: 'none', labels: {}, createdAt: now, updatedAt: now
    })
    writeFileSync(path.join(dataDir, 'targets.json'), JSON.stringify({ kind: 'virtbench.targets', version: 1, data: { targets: [target('phys', 'host', 0), target('vm', 'guest', 1)] } }))
    const preset = (name: string, domain: string, factors: Record<string, unknown>, more: Record<string, unknown> = {}): string => {
      const file = path.join(scratch, `${name}.json`)
      writeFileSync(file, JSON.stringify({
        kind: 'virtbench-preset', version: 1,
        plan: { name, baseline: { target: 'phys' }, variants: [], sweep: { target: 'vm', domain, factors, ...more }, tests: [{ id: 'dd', tool: 'dd', params: { mode: 'write', blockSize: '64k', count: '4' } }], repetitions: 1, idleSeconds: 0 }
      }))
      return file
    }

    for (const [name, domain, factors, error, more] of [
      ['missing', 'vb-nope', { cache: ['none', 'writeback'] }, "phys has no libvirt domain named vb-nope (virsh said: failed to get domain 'vb-nope'): check the domain name (virsh list --all on phys)"],
      [
        'queues',
        'test',
        { queues: [1, 4] },
        'test on phys cannot take one combination of the sweep, nothing was changed: queues=4: queues=4 is more than the 2 vCPUs of domain test (Linux uses at most one queue per vCPU): ask for at most 2 queues, or add vcpus: 4'
      ],
      [
        'boot-disk',
        'test',
        { storage: ['lvm'] },
        'test on phys cannot take this setup, nothing was changed: vda is the disk domain test boots from: VirtBench swaps the storage of data disks only; name a data disk, or allow it explicitly (allowBootDisk, storageBootDisk in a sweep) when /dev/vb-nope/bench boots the guest',
        { storage: { vda: { lvm: '/dev/vb-nope/bench' } } }
      ],
      [
        'no-volume',
        'test',
        { storage: ['file-raw', 'lvm'] },
        `test on phys cannot take the storage asked for, nothing was changed: phys has no block device /dev/vb-nope/bench for vda (storage lvm): create the logical volume (lvcreate -L 10G -n NAME VG), or correct the path in the plan`,
        { storage: { vda: { 'file-raw': '/etc/hostname', lvm: '/dev/vb-nope/bench' } }, storageBootDisk: true }
      ]
    ] as const) {
      const out = path.join(scratch, name)
      const result = await runCli(['run', preset(name, domain, factors, more), '--out', out, '--data-dir', dataDir, '--accept-new-host-keys', '--change-domains'])
      expect(result.status, result.stdout + result.stderr).toBe(1)
      const stepLine = result.stdout.split('\n').find((l) => l.startsWith('step 01-'))
      expect(stepLine).toMatch(/^step 01-\S+: failed in [\d.]+ s: /)
      expect(stepLine?.slice(stepLine.indexOf(' s: ') + 4)).toBe(error)
      expect(result.stdout).toContain('Sweep stopped: 0 of its steps completed.')
      const [first] = readdirSync(out).filter((d) => /^01-/.test(d))
      const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, first!, 'run.json'), 'utf8')))
      expect(run.status).toBe('failed')
      expect(run.error).toBe(error)
      expect(run.jobs.every((j) => j.status !== 'succeeded')).toBe(true)
      expect(run.domains).toEqual([{ domain, host: 'phys', guest: 'vm', apply: { status: 'failed', at: expect.any(String), changes: [], error } }])
      // nothing saved, so nothing to put back: the domain was never changed
      expect(existsSync(path.join(out, 'domains'))).toBe(false)
      expect(readdirSync(out).filter((d) => /^\d+-/.test(d))).toEqual([first])
    }
  }, 120_000)
})
