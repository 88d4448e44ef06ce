/**
 * A bus and an io mode change on a real libvirt guest (the lab's own libvirtd, TCG), applied by
 * VirtBench's scenario code through the physical host's session (the harness sshd, whose
 * sessions reach the lab libvirtd through LIBVIRT_DEFAULT_URI): the data disk vdc moves from
 * virtio-blk to SATA and every disk from io=native to io=threads; the guest comes back with the
 * disk on its AHCI controller, still mounted at /data by its label; the restore puts the domain
 * back to the same bytes (but the domain id).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Client } from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { labLibvirtUri, type Guest } from '../../../lab/driver'
import { applyDomainSetup, restoreDomain, savedOriginals } from '../../../src/main/scenario/apply'
import { SshSession } from '../../../src/main/ssh/session'
import { sessionFor } from '../ssh/session-helpers'
import { BOOT_TIMEOUT_MS, BUILD_TIMEOUT_MS, openLab, type LabContext } from './lab-fixture'

describe('a bus and an io mode change on a real libvirt guest', () => {
  let lab: LabContext
  let guest: Guest
  let hostSession: SshSession
  let guestSession: SshSession

  const dumpxml = (): string => {
    const r = spawnSync('virsh', ['-c', guest.libvirtUri!, 'dumpxml', guest.domain!], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    return r.stdout.replace(/^(<domain [^>]*?) id='\d+'/, '$1')
  }
  const inGuest = async (script: string): Promise<string> => {
    const r = await guestSession.exec({ script }, { capture: { maxBytes: 65536 }, timeoutMs: 120_000 })
    expect(r.exitCode, r.stderr?.toString()).toBe(0)
    return r.stdout?.toString() ?? ''
  }

  /** The device mounted at /data: systemd mounts it (nofail) once the disk shows up, which can be after SSH answers. */
  const dataDisk = (): Promise<string> =>
    inGuest(`for i in $(seq 90); do awk '$2 == "/data" { print $1; found = 1 } END { exit !found }' /proc/mounts && exit 0; sleep 1; done; exit 1`).then((s) => s.trim())

  beforeAll(async () => {
    lab = await openLab('bus')
    const uri = labLibvirtUri(lab.stateDir)
    const [host, [booted]] = await Promise.all([
      lab.physicalHost({ extraConfig: [`SetEnv LIBVIRT_DEFAULT_URI=${uri}`] }),
      lab.boot([{ name: 'bus', cache: 'none', libvirt: true }])
    ])
    guest = booted
    hostSession = sessionFor(host)
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
  }, BUILD_TIMEOUT_MS + BOOT_TIMEOUT_MS)

  afterAll(async () => {
    await Promise.allSettled([hostSession?.close(), guestSession?.close()])
    await lab?.stop()
  }, 60_000)

  it('moves the data disk to SATA and the disks to io=threads, verified; the restore gives back the same XML', async () => {
    const before = dumpxml()
    expect(before).toContain("<target dev='vdc' bus='virtio'/>")
    expect(await dataDisk()).toBe('/dev/vdc')
    const host = { label: 'phys', session: hostSession, sudo: false as const }
    const originals = path.join(lab.dir, 'domains')

    const applied = await applyDomainSetup(host, guest.domain!, { io: 'threads', bus: { disk: 'vdc', to: 'sata' } }, { label: 'vm', session: guestSession }, { originalsDir: originals })
    expect(applied.changes.map((c) => `${c.what}: ${c.from} -> ${c.to}`)).toEqual([
      'vda io: native -> threads',
      'vdb io: native -> threads',
      'vdc bus: virtio -> sata',
      'vdc target dev: vdc -> sda',
      'vdc io: native -> threads'
    ])
    expect(applied.checks.filter((c) => !c.ok)).toEqual([])
    expect(applied.checks.find((c) => c.what === 'vdc moved to')).toMatchObject({ seen: 'sata', ok: true })
    console.log(`bus + io change: restart ${applied.timings.restartMs} ms, SSH after ${applied.timings.bootMs} ms more`)

    // the host: the disk on SATA with a new name, io=threads everywhere
    const changed = dumpxml()
    expect(changed).toMatch(/<driver name='qemu' type='qcow2' cache='none' io='threads'\/>\s*<source file='[^']*data\.qcow2'[^>]*\/>[\s\S]*?<target dev='sda' bus='sata'\/>/)
    expect(changed).not.toContain("io='native'")
    // the guest: the data disk is an ATA disk now, mounted at /data by its label
    expect(await dataDisk()).toBe('/dev/sda')
    expect(await inGuest('readlink -f /sys/block/sda')).toMatch(/\/ata\d+\//)

    const [saved] = savedOriginals(originals)
    expect(saved?.xml).toContain("<target dev='vdc' bus='virtio'/>")
    await restoreDomain(host, saved!, { label: 'vm', session: guestSession })
    expect(dumpxml()).toBe(before)
    expect(await dataDisk()).toBe('/dev/vdc')
  }, 900_000)
})
