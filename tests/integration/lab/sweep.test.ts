/**
 * A sweep on a real libvirt guest (the lab's own libvirtd, TCG): `virtbench run --change-domains`
 * with a preset sweeping cache {none, writeback} x queues {1, 2} over one guest. Each combination
 * is applied to the domain by VirtBench (virsh on the physical host: the harness sshd, whose
 * sessions reach the lab libvirtd through LIBVIRT_DEFAULT_URI), verified in the domain XML and
 * inside the guest, and measured with dd. The CLI is killed in the last step, and
 * `virtbench run --resume` of that step puts the original domain back: `virsh dumpxml` before and
 * after are the same bytes (but the domain id, which every start changes). Bad input (a domain
 * that does not exist, more queues than vCPUs, no consent) is refused before anything changes.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { Client } from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { labLibvirtUri, type Guest } from '../../../lab/driver'
import { applyDomainSetup, checkDomainSetup } from '../../../src/main/scenario/apply'
import type { DomainHost } from '../../../src/main/scenario/virsh'
import { SshSession } from '../../../src/main/ssh/session'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import type { SshdServer } from '../../harness/sshd'
import { sessionFor } from '../ssh/session-helpers'
import { BOOT_TIMEOUT_MS, BUILD_TIMEOUT_MS, openLab, saveTargets, virtbenchRun, writePreset, type LabContext } from './lab-fixture'

const COMBOS = [
  { label: 'cache=none, queues=1', cache: 'none', queues: 1 },
  { label: 'cache=none, queues=2', cache: 'none', queues: 2 },
  { label: 'cache=writeback, queues=1', cache: 'writeback', queues: 1 },
  { label: 'cache=writeback, queues=2', cache: 'writeback', queues: 2 }
]

describe('a sweep on a real libvirt guest, applied and put back', () => {
  let lab: LabContext
  let host: SshdServer
  let guest: Guest
  let hostSession: SshSession
  let guestSession: SshSession
  let domainHost: DomainHost

  /** The live domain XML with its id (a counter every start changes) taken out. */
  const dumpxml = (): string => {
    const r = spawnSync('virsh', ['-c', guest.libvirtUri!, 'dumpxml', guest.domain!], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    return r.stdout.replace(/^(<domain [^>]*?) id='\d+'/, '$1')
  }
  const domainId = (): string => spawnSync('virsh', ['-c', guest.libvirtUri!, 'domid', guest.domain!], { encoding: 'utf8' }).stdout.trim()

  beforeAll(async () => {
    lab = await openLab('sweep')
    const uri = labLibvirtUri(lab.stateDir)
    ;[host, [guest]] = await Promise.all([
      lab.physicalHost({ extraConfig: [`SetEnv LIBVIRT_DEFAULT_URI=${uri}`] }),
      // the first combination is the guest as it boots: the sweep restarts it three times, the restore once
      lab.boot([{ name: 'sweep', cache: 'none', io: 'threads', queues: 1, cpus: 2, libvirt: true }])
    ])
    hostSession = sessionFor(host)
    domainHost = { label: 'phys', session: hostSession, sudo: false }
    const hostKey = Buffer.from(readFileSync(lab.image.hostKeyFile, 'utf8').trim().split(/\s+/)[1]!, 'base64')
    guestSession = new SshSession({
      label: 'vm',
      connect: () =>
        new Promise((resolve, reject) => {
          const client = new Client()
          client.on('error', reject)
          client.once('ready', () => resolve(client))
          client.connect({ host: '127.0.0.1', port: guest.sshPort, username: 'root', privateKey: readFileSync(lab.image.keyPath), hostVerifier: (key: Buffer) => key.equals(hostKey) })
        })
    })
    saveTargets(lab, [
      { name: 'phys', port: host.port, role: 'host' },
      { name: 'vm', port: guest.sshPort, role: 'guest' }
    ])
  }, BUILD_TIMEOUT_MS + BOOT_TIMEOUT_MS)

  afterAll(async () => {
    await Promise.allSettled([hostSession?.close(), guestSession?.close()])
    await lab?.stop()
  }, 60_000)

  const sweepPreset = (name: string): string =>
    writePreset(lab, name, {
      baseline: { target: 'phys' },
      variants: [],
      sweep: { target: 'vm', domain: guest.domain, scenario: { hypervisor: 'kvm', storage: 'file-qcow2' }, factors: { cache: ['none', 'writeback'], queues: [1, 2] } },
      tests: [{ id: 'dd', tool: 'dd', params: { mode: 'write', blockSize: '1M', count: '8', direct: true } }],
      repetitions: 1,
      idleSeconds: 0
    })

  it('refuses a domain that does not exist, more queues than vCPUs and a run without consent, before anything changes', async () => {
    const before = dumpxml()
    const id = domainId()
    await expect(checkDomainSetup(domainHost, 'vb-lab-nope', { cache: 'none' })).rejects.toThrow(/^phys has no libvirt domain named vb-lab-nope \(virsh said: .*\): check the domain name \(virsh list --all on phys\)$/)
    const originals = path.join(lab.dir, 'refused-domains')
    await expect(applyDomainSetup(domainHost, guest.domain!, { queues: 4 }, { label: 'vm', session: guestSession }, { originalsDir: originals })).rejects.toThrow(
      'vb-lab-sweep on phys cannot take this setup, nothing was changed: queues=4 is more than the 2 vCPUs of domain vb-lab-sweep (Linux uses at most one queue per vCPU): ask for at most 2 queues, or add vcpus: 4'
    )
    expect(existsSync(originals)).toBe(false)

    const out = path.join(lab.dir, 'no-consent')
    const refused = await virtbenchRun([sweepPreset('no-consent'), '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys'])
    expect(refused.status, refused.stdout + refused.stderr).toBe(2)
    expect(refused.stderr).toContain('the plan changes the libvirt domain vb-lab-sweep (vm, swept) on the physical host')
    expect(refused.stderr).toContain('Give --change-domains to allow it.')
    expect(existsSync(out)).toBe(false)

    // untouched: the same XML, and the same running instance (no restart)
    expect(dumpxml()).toBe(before)
    expect(domainId()).toBe(id)
  }, 120_000)

  it('sweeps cache x queues: each combination applied, verified in the guest and the XML, measured with dd; killed and resumed, the domain is put back byte for byte', async () => {
    const before = dumpxml()
    const out = path.join(lab.dir, 'sweep')
    const started = Date.now()
    const killed = await virtbenchRun([sweepPreset('sweep'), '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys', '--change-domains'], (text, child) => {
      // the CLI dies in the last step, once the domain took its last combination (verified), before its jobs and the restore
      const last = text.indexOf('Sweep step 4 of 4')
      if (last >= 0 && text.includes('vb-lab-sweep: verified', last)) child.kill('SIGKILL')
    })
    const sweepSeconds = (Date.now() - started) / 1000
    expect(killed.status, killed.stdout + killed.stderr).toBeNull()

    const sweep = JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8')) as { steps: { label: string; dir: string; status: string; seconds: number }[] }
    expect(sweep.steps.map((s) => [s.label, s.status])).toEqual(COMBOS.slice(0, 3).map((c) => [c.label, 'completed']))
    // the last combination is in force: the CLI died before the restore
    expect(dumpxml()).toContain("cache='writeback' io='threads' queues='2'")

    const lastDir = path.join(out, `04-${COMBOS[3]!.label.replace(/[^A-Za-z0-9=.-]+/g, '_')}`)
    const resumed = await virtbenchRun(['--resume', lastDir, '--data-dir', lab.dataDir, '--change-domains'])
    expect(resumed.status, resumed.stdout + resumed.stderr).toBe(0)
    expect(resumed.stdout).toContain('Domain vb-lab-sweep has its original configuration again')

    const timings: string[] = []
    for (const [i, combo] of COMBOS.entries()) {
      const dir = i < 3 ? path.join(out, sweep.steps[i]!.dir) : lastDir
      const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')))
      expect(run.status).toBe('completed')
      expect(run.plan.variants.map((v) => [v.label, v.scenario.cache, v.scenario.queues])).toEqual([[combo.label, combo.cache, combo.queues]])
      // applied and verified by VirtBench: host XML and guest
      const applied = run.preflight.find((f) => f.code === 'scenario-applied')
      expect(applied?.message).toContain(`host vdb cache ${combo.cache}, host vdb queues ${combo.queues}`)
      expect(applied?.message).toContain(`guest vdb blk-mq queues ${combo.queues}, guest vdb write_cache write back`)
      timings.push(`${combo.label}: ${applied?.message.match(/(restarted in [^;]*|nothing to change)/)?.[0]}; step ${i < 3 ? `${sweep.steps[i]!.seconds} s` : '(resumed)'}`)
      // and seen again by the run's own environment capture, inside the guest and in the host's XML
      const inside = run.environment.vm?.blockDevices?.find((d) => d.name === guest.devices.raw)
      expect(inside).toMatchObject({ mqQueues: combo.queues, writeCache: 'write back' })
      expect(run.environment.phys?.guests?.[guest.domain!]?.disks.map((d) => [d.device, d.cache, d.queues])).toEqual(
        ['vda', 'vdb', 'vdc'].map((d) => [d, combo.cache, combo.queues])
      )
      expect(run.preflight.filter((f) => f.code === 'scenario-mismatch')).toEqual([])
      // dd measured on both sides
      for (const side of ['phys', combo.label]) {
        const job = run.jobs.find((j) => j.side === side && j.kind === 'compare')
        expect(job?.status).toBe('succeeded')
        expect(job?.samples.find((s) => s.metric === 'dd.bandwidth')?.value).toBeGreaterThan(0)
      }
    }
    // the first combination is the guest as it was: no restart for it
    expect(timings[0]).toMatch(/nothing to change/)
    console.log(`sweep of 4 combinations until the kill in step 4: ${sweepSeconds.toFixed(0)} s\n${timings.join('\n')}`)

    // put back: the same bytes as before (the domain id aside), and transient again as it was
    expect(dumpxml()).toBe(before)
    expect(spawnSync('virsh', ['-c', guest.libvirtUri!, 'dominfo', guest.domain!], { encoding: 'utf8' }).stdout).toMatch(/^Persistent:\s+no$/m)
    expect(existsSync(path.join(out, 'domains', 'vb-lab-sweep.restored'))).toBe(true)
  }, 1_200_000)
})
