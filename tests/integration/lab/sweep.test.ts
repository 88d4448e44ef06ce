/**
 * Sweeps on a real libvirt guest (the lab's own libvirtd, TCG), one guest booted for the whole
 * file. VirtBench changes the domain through the physical host's session (the harness sshd, whose
 * sessions reach the lab libvirtd through LIBVIRT_DEFAULT_URI), and `virsh dumpxml` before and
 * after each scenario compares the domain put back byte for byte (but its id, which every start
 * changes):
 * - bad input (a domain that does not exist, more queues than vCPUs, in a setup and in a sweep; no
 *   consent) is refused before anything changes;
 * - `virtbench run --change-domains` sweeps cache {none, writeback} x queues {1, 2}, each combination
 *   verified in the domain XML and inside the guest and measured with dd and fio; the CLI is killed
 *   in step 3, and `virtbench run --resume` of that step finishes the sweep (steps 1 and 2 are not
 *   run again) and puts the domain back;
 * - the guest's qemu killed while it boots into a combination: the step fails with the serial
 *   console's end and the XML diff, and the restore brings the original back, all in run.json;
 * - a bus and an io mode change (the data disk vdc from virtio-blk to SATA, every disk to
 *   io=native), verified in the guest, and restored.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Client } from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { labLibvirtUri, processMatches, type Guest } from '../../../lab/driver'
import { applyDomainSetup, checkDomainSetup, restoreDomain, savedOriginals } from '../../../src/main/scenario/apply'
import type { DomainHost } from '../../../src/main/scenario/virsh'
import { SshSession } from '../../../src/main/ssh/session'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import type { SshdServer } from '../../harness/sshd'
import { sessionFor } from '../ssh/session-helpers'
import { BOOT_TIMEOUT_MS, BUILD_TIMEOUT_MS, openLab, saveTargets, virtbenchRun, writePreset, type LabContext } from './lab-fixture'

const COMBOS = [
  { label: 'cache=none, queues=1', cache: 'none', queues: 1 },
  { label: 'cache=none, queues=2', cache: 'none', queues: 2 },
  { label: 'cache=writeback, queues=1', cache: 'writeback', queues: 1 },
  { label: 'cache=writeback, queues=2', cache: 'writeback', queues: 2 }
]
/** A line of the kernel on the serial console. */
const KERNEL_SPEAKS = /Linux version|\[ +\d+\.\d+\]/
const readIfThere = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '')
const stepDir = (i: number, label: string): string => `${String(i + 1).padStart(2, '0')}-${label.replace(/[^A-Za-z0-9=.-]+/g, '_')}`
const readRunDoc = (dir: string): RunDocument => RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')))

describe('sweeps on a real libvirt guest, applied and put back', () => {
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
  /** The PID of the domain's qemu as libvirt started it last (every restart has a new one). */
  const qemuPid = (): number | undefined => {
    const file = path.join(lab.stateDir, 'libvirt', 'run', 'qemu', `${guest.domain!}.pid`)
    const pid = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : NaN
    return Number.isInteger(pid) && processMatches(pid, ['qemu-system', guest.domain!]) ? pid : undefined
  }
  const inGuest = async (script: string): Promise<string> => {
    const r = await guestSession.exec({ script }, { capture: { maxBytes: 65536 }, timeoutMs: 120_000 })
    expect(r.exitCode, r.stderr?.toString()).toBe(0)
    return r.stdout?.toString() ?? ''
  }
  /**
   * The device mounted at /data. systemd mounts it by its label (nofail) once the disk shows up,
   * which can be after SSH answers; the image's fstab gives the disk 20 s to show up, which a
   * loaded machine under TCG can pass (the boot then goes on without /data): starting the mount
   * again waits for it anew.
   */
  const dataDisk = (): Promise<string> => inGuest(`systemctl start data.mount && awk '$2 == "/data" { print $1 }' /proc/mounts`).then((s) => s.trim())

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

  const sweepPreset = (name: string, factors: Record<string, unknown> = { cache: ['none', 'writeback'], queues: [1, 2] }): string =>
    writePreset(lab, name, {
      baseline: { target: 'phys' },
      variants: [],
      sweep: { target: 'vm', domain: guest.domain, scenario: { hypervisor: 'kvm', storage: 'file-qcow2' }, factors },
      // as short as still meaningful: each job measures, but the step's time is its restart and
      // its run's set-up (fio's default is 30 s a job, 8 of them in the sweep)
      tests: [
        { id: 'dd', tool: 'dd', params: { mode: 'write', blockSize: '1M', count: '4', direct: true } },
        { id: 'fio', tool: 'fio', params: { rw: 'write', bs: '64k', size: '4m', runtime: 1, timeBased: true, direct: true, ioengine: 'psync' } }
      ],
      repetitions: 1,
      idleSeconds: 0
    })

  it('refuses a domain that does not exist, more queues than vCPUs (a setup, a sweep) and a run without consent, before anything changes', async () => {
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

    // a sweep whose second combination the domain cannot take stops before its first change
    const tooMany = path.join(lab.dir, 'too-many-queues')
    const stopped = await virtbenchRun([sweepPreset('too-many-queues', { queues: [1, 4] }), '--out', tooMany, '--data-dir', lab.dataDir, '--accept-new-host-keys', '--change-domains'])
    expect(stopped.status, stopped.stdout + stopped.stderr).toBe(1)
    const step = readRunDoc(path.join(tooMany, stepDir(0, 'queues=1')))
    expect(step.status).toBe('failed')
    expect(step.error).toBe(
      'vb-lab-sweep on phys cannot take one combination of the sweep, nothing was changed: queues=4: queues=4 is more than the 2 vCPUs of domain vb-lab-sweep (Linux uses at most one queue per vCPU): ask for at most 2 queues, or add vcpus: 4'
    )
    expect(step.jobs.every((j) => j.status !== 'succeeded')).toBe(true)
    expect(step.domains).toEqual([{ domain: 'vb-lab-sweep', host: 'phys', guest: 'vm', apply: expect.objectContaining({ status: 'failed', changes: [], error: step.error }) }])
    expect(existsSync(path.join(tooMany, 'domains'))).toBe(false)

    // untouched: the same XML, and the same running instance (no restart)
    expect(dumpxml()).toBe(before)
    expect(domainId()).toBe(id)
  }, 300_000)

  it('sweeps cache x queues: each combination applied, verified in the guest and the XML, measured with dd and fio; killed and resumed, the sweep ends and the domain is put back byte for byte', async () => {
    const before = dumpxml()
    const out = path.join(lab.dir, 'sweep')
    const started = Date.now()
    const killed = await virtbenchRun([sweepPreset('sweep'), '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys', '--change-domains'], (text, child) => {
      // the CLI dies in step 3, once the domain took its combination (verified), before its jobs
      const third = text.indexOf('Sweep step 3 of 4')
      if (third >= 0 && text.includes('vb-lab-sweep: verified', third)) child.kill('SIGKILL')
    })
    const killedSeconds = (Date.now() - started) / 1000
    expect(killed.status, killed.stdout + killed.stderr).toBeNull()

    const beforeResume = JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8')) as { steps: { label: string; dir: string; status: string; seconds: number }[] }
    expect(beforeResume.steps.map((s) => [s.label, s.status])).toEqual(COMBOS.slice(0, 2).map((c) => [c.label, 'completed']))
    // the third combination is in force: the CLI died before the restore
    expect(dumpxml()).toContain("cache='writeback' io='threads' queues='1'")
    const finished = beforeResume.steps.map((s) => readFileSync(path.join(out, s.dir, 'run.json'), 'utf8'))

    // resumed from the step that was under way: it and the step after it run, the first two are kept
    const resumedAt = Date.now()
    const resumed = await virtbenchRun(['--resume', path.join(out, stepDir(2, COMBOS[2]!.label)), '--data-dir', lab.dataDir, '--change-domains'])
    const resumedSeconds = (Date.now() - resumedAt) / 1000
    expect(resumed.status, resumed.stdout + resumed.stderr).toBe(0)
    expect(resumed.stdout).not.toMatch(/Sweep step [12] of 4/)
    expect(resumed.stdout).toContain('Sweep step 3 of 4: vm with cache=writeback, queues=1')
    expect(resumed.stdout).toContain('Sweep step 4 of 4: vm with cache=writeback, queues=2')
    expect(resumed.stdout).toContain('Domain vb-lab-sweep has its original configuration again')
    expect(resumed.stdout).toContain('Sweep of vm (vb-lab-sweep), relative to phys')
    // one repetition per step: the % is there, and the verdict beside it says the data cannot tell
    expect(resumed.stdout).toMatch(/^cache=writeback +\S+ \S+ \d+ % \(can't tell\) +\S+ \S+ \d+ % \(can't tell\)/m)
    expect(resumed.stdout).toContain('Sweep completed: 4 of its steps completed.')
    expect(beforeResume.steps.map((s) => readFileSync(path.join(out, s.dir, 'run.json'), 'utf8'))).toEqual(finished)

    const sweep = JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8')) as { steps: { label: string; dir: string; status: string; seconds: number }[] }
    expect(sweep.steps.map((s) => [s.label, s.dir, s.status])).toEqual(COMBOS.map((c, i) => [c.label, stepDir(i, c.label), 'completed']))
    const timings: string[] = []
    for (const [i, combo] of COMBOS.entries()) {
      const dir = path.join(out, sweep.steps[i]!.dir)
      const run = readRunDoc(dir)
      expect(run.status).toBe('completed')
      expect(run.plan.variants.map((v) => [v.label, v.scenario.cache, v.scenario.queues])).toEqual([[combo.label, combo.cache, combo.queues]])
      // applied and verified by VirtBench: host XML and guest
      const applied = run.preflight.find((f) => f.code === 'scenario-applied')
      expect(applied?.message).toContain(`host vdb cache ${combo.cache}, host vdb queues ${combo.queues}`)
      expect(applied?.message).toContain(`guest vdb blk-mq queues ${combo.queues}, guest vdb write_cache write back`)
      timings.push(`${combo.label}: ${applied?.message.match(/(restarted in [^;]*|nothing to change)/)?.[0]}; step ${sweep.steps[i]!.seconds} s${i === 2 ? ' (resumed)' : ''}`)
      // and seen again by the run's own environment capture, inside the guest and in the host's XML
      const inside = run.environment.vm?.blockDevices?.find((d) => d.name === guest.devices.raw)
      expect(inside).toMatchObject({ mqQueues: combo.queues, writeCache: 'write back' })
      expect(run.environment.phys?.guests?.[guest.domain!]?.disks.map((d) => [d.device, d.cache, d.queues])).toEqual(
        ['vda', 'vdb', 'vdc'].map((d) => [d, combo.cache, combo.queues])
      )
      expect(run.preflight.filter((f) => f.code === 'scenario-mismatch')).toEqual([])
      // dd and fio measured on both sides
      for (const side of ['phys', combo.label]) {
        for (const [test, metric] of [['dd', 'dd.bandwidth'], ['fio', 'fio.write.bandwidth']] as const) {
          const job = run.jobs.find((j) => j.side === side && j.kind === 'compare' && j.testId === test)
          expect(job?.status, `${test} on ${side}: ${job?.error ?? ''}`).toBe('succeeded')
          expect(job?.samples.find((s) => s.metric === metric)?.value).toBeGreaterThan(0)
        }
      }
      // the domain's record: applied (with its XML diff in the run folder) or unchanged, then kept for the next step or put back
      const [record] = run.domains ?? []
      expect(record).toMatchObject({ domain: 'vb-lab-sweep', host: 'phys', guest: 'vm' })
      expect(record?.apply?.status).toBe(i === 0 ? 'unchanged' : 'applied')
      if (i > 0) {
        const diff = readFileSync(path.join(dir, record!.apply!.diffFile!), 'utf8')
        expect(diff).toContain(`cache='${combo.cache}'`)
        expect(record?.apply?.changes).toContain(i === 2 ? 'vdb cache: none -> writeback' : `vdb queues: ${COMBOS[i - 1]!.queues} -> ${combo.queues}`)
      }
      expect(record?.restore).toMatchObject({ status: i === 3 ? 'restored' : 'kept', originalFile: '../domains/vb-lab-sweep.xml' })
    }
    // the first combination is the guest as it was: no restart for it
    expect(timings[0]).toMatch(/nothing to change/)
    console.log(`sweep of 4 combinations (dd and fio), until the kill in step 3: ${killedSeconds.toFixed(0)} s; resumed steps 3 and 4 with the restore: ${resumedSeconds.toFixed(0)} s\n${timings.join('\n')}`)

    // put back: the same bytes as before (the domain id aside), and transient again as it was
    expect(dumpxml()).toBe(before)
    expect(spawnSync('virsh', ['-c', guest.libvirtUri!, 'dominfo', guest.domain!], { encoding: 'utf8' }).stdout).toMatch(/^Persistent:\s+no$/m)
    expect(existsSync(path.join(out, 'domains', 'vb-lab-sweep.restored'))).toBe(true)
  }, 1_500_000)

  it('a guest killed while it boots into a combination fails that step with its serial console and the XML diff; the original is put back, all in run.json', async () => {
    const before = dumpxml()
    const bootedPid = qemuPid()
    expect(bootedPid).toBeDefined()
    const out = path.join(lab.dir, 'guest-killed')
    let killedPid: number | undefined
    const result = await virtbenchRun([sweepPreset('guest-killed', { cache: ['writeback', 'none'] }), '--out', out, '--data-dir', lab.dataDir, '--change-domains'], (text) => {
      if (killedPid !== undefined || !text.includes('vb-lab-sweep: restarting')) return
      killedPid = -1
      void (async () => {
        // the qemu libvirt started with the new configuration (its console starts empty): once its
        // kernel speaks on the serial console, pull the plug
        let pid: number | undefined
        for (let i = 0; i < 600 && (pid === undefined || pid === bootedPid); i++) {
          await sleep(200)
          pid = qemuPid()
        }
        for (let i = 0; i < 600 && pid !== undefined && !KERNEL_SPEAKS.test(readIfThere(guest.serialLog)); i++) await sleep(200)
        if (pid === undefined || pid === bootedPid || !processMatches(pid, ['qemu-system', guest.domain!])) return
        killedPid = pid
        process.kill(pid, 'SIGKILL')
      })()
    })
    expect(killedPid, result.stdout).toBeGreaterThan(0)
    expect(result.status, result.stdout + result.stderr).toBe(1)
    expect(result.stdout).toContain('Domain vb-lab-sweep has its original configuration again')
    expect(result.stdout).toContain('Sweep stopped: 0 of its steps completed.')
    expect(result.stdout).not.toContain('Sweep step 2 of 2')

    const run = readRunDoc(path.join(out, stepDir(0, 'cache=writeback')))
    expect(run.status).toBe('failed')
    expect(run.error).toBe(
      'domain vb-lab-sweep went down (virsh domstate: shut off) before vm answered SSH after vb-lab-sweep was changed on phys (vda cache: none -> writeback; vdb cache: none -> writeback; vdc cache: none -> writeback); the original configuration is put back'
    )
    expect(run.jobs.every((j) => j.status !== 'succeeded')).toBe(true)
    const [record] = run.domains ?? []
    expect(record).toMatchObject({
      domain: 'vb-lab-sweep',
      host: 'phys',
      guest: 'vm',
      apply: { status: 'failed', error: run.error, diffFile: 'scenario/vb-lab-sweep.diff' },
      restore: { status: 'restored', originalFile: '../domains/vb-lab-sweep.xml' }
    })
    const diff = readFileSync(path.join(out, stepDir(0, 'cache=writeback'), 'scenario', 'vb-lab-sweep.diff'), 'utf8')
    expect(diff).toMatch(/^- .*cache='none'/m)
    expect(diff).toMatch(/^\+ .*cache='writeback'/m)
    // the details: the same diff, and the end of the serial console of the boot that was killed
    expect(record?.apply?.details).toContain(`XML diff:\n${diff}`)
    expect(record?.apply?.details).toMatch(/serial console \(last lines\):\n/)
    expect(record?.apply?.details?.split('serial console (last lines):\n')[1]).toMatch(KERNEL_SPEAKS)

    // put back: the same bytes, running again under a new qemu, transient as it was
    expect(dumpxml()).toBe(before)
    expect(qemuPid()).not.toBe(killedPid)
    expect(spawnSync('virsh', ['-c', guest.libvirtUri!, 'dominfo', guest.domain!], { encoding: 'utf8' }).stdout).toMatch(/^State:\s+running$/m)
    expect(spawnSync('virsh', ['-c', guest.libvirtUri!, 'dominfo', guest.domain!], { encoding: 'utf8' }).stdout).toMatch(/^Persistent:\s+no$/m)
  }, 900_000)

  it('moves the data disk to SATA and the disks to io=native, verified; the restore gives back the same XML', async () => {
    const before = dumpxml()
    expect(before).toContain("<target dev='vdc' bus='virtio'/>")
    expect(await dataDisk()).toBe('/dev/vdc')
    const originals = path.join(lab.dir, 'bus-domains')

    const applied = await applyDomainSetup(domainHost, guest.domain!, { io: 'native', bus: { disk: 'vdc', to: 'sata' } }, { label: 'vm', session: guestSession }, { originalsDir: originals })
    expect(applied.changes.map((c) => `${c.what}: ${c.from} -> ${c.to}`)).toEqual([
      'vda io: threads -> native',
      'vdb io: threads -> native',
      'vdc bus: virtio -> sata',
      'vdc target dev: vdc -> sda',
      // a SATA disk has one queue: the virtio queues of the guest as booted go
      'vdc queues: 1 -> (unset)',
      'vdc io: threads -> native'
    ])
    expect(applied.checks.filter((c) => !c.ok)).toEqual([])
    expect(applied.checks.find((c) => c.what === 'vdc moved to')).toMatchObject({ seen: 'sata', ok: true })
    console.log(`bus + io change: restart ${applied.timings.restartMs} ms, SSH after ${applied.timings.bootMs} ms more`)

    // the host: the disk on SATA with a new name, io=native everywhere
    const changed = dumpxml()
    expect(changed).toMatch(/<driver name='qemu' type='qcow2' cache='none' io='native'\/>\s*<source file='[^']*data\.qcow2'[^>]*\/>[\s\S]*?<target dev='sda' bus='sata'\/>/)
    expect(changed).not.toContain("io='threads'")
    // the guest: the data disk is an ATA disk now, mounted at /data by its label
    expect(await dataDisk()).toBe('/dev/sda')
    expect(await inGuest('readlink -f /sys/block/sda')).toMatch(/\/ata\d+\//)

    const [saved] = savedOriginals(originals)
    expect(saved?.xml).toContain("<target dev='vdc' bus='virtio'/>")
    await restoreDomain(domainHost, saved!, { label: 'vm', session: guestSession })
    expect(dumpxml()).toBe(before)
    expect(await dataDisk()).toBe('/dev/vdc')
  }, 900_000)
})
