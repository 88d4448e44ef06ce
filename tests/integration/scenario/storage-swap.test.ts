/**
 * A data disk swapped between storage backends (a raw file, a qcow2 file, a block device) on
 * libvirt's test driver behind a libvirtd of the test's own (test-libvirtd.ts; the physical host
 * and the guest are this computer): the prepared disks are checked on the host before anything
 * changes (a missing one, a file where a block device is asked for, the boot disk: refused, the
 * domain untouched), each swap is verified in the live XML and inside the guest, and the restore
 * gives back the original XML byte for byte.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyDomainSetup, checkDomainSetups, restoreDomain, savedOriginals } from '../../../src/main/scenario/apply'
import type { DomainHost } from '../../../src/main/scenario/virsh'
import type { LocalSession } from '../../../src/main/ssh/local-session'
import type { DomainSetup } from '../../../src/shared/model/scenario'
import { useTestDomain } from './test-domain'
import type { TestLibvirtd } from './test-libvirtd'

const DOMAIN = 'vb-storage'
// the guest is this computer: the swapped disk is named as one of its own disks, so the guest's check can see it
const DATA_DISK = readdirSync('/sys/block').find((d) => /^vd[a-z]$/.test(d)) ?? readdirSync('/sys/block').find((d) => /^[sh]d[a-z]$/.test(d))
// a block device of this computer stands for the LVM volume (the test driver opens nothing)
const BLOCK = readdirSync('/dev').map((d) => `/dev/${d}`).find((d) => /^\/dev\/(loop\d+|[svh]d[a-z]|zram\d+)$/.test(d) && statSync(d).isBlockDevice())

let libvirt: TestLibvirtd
let scratch: string
let session: LocalSession
let original: string
function xml(dataFile: string): string {
  return `<domain type='test'>
  <name>${DOMAIN}</name>
  <memory unit='KiB'>1048576</memory>
  <vcpu placement='static'>1</vcpu>
  <os>
    <type arch='x86_64'>hvm</type>
  </os>
  <devices>
    <disk type='file' device='disk'>
      <driver name='qemu' type='qcow2'/>
      <source file='/var/lib/vb/boot.qcow2'/>
      <target dev='hdz' bus='ide'/>
      <boot order='1'/>
    </disk>
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw' cache='none'/>
      <source file='${dataFile}'/>
      <target dev='${DATA_DISK}' bus='virtio'/>
    </disk>
  </devices>
</domain>
`
}

useTestDomain({
  domain: DOMAIN,
  scratchPrefix: 'vb-storage-swap-',
  xml: (scratch) => {
    for (const f of ['data.raw', 'bench.raw', 'bench.qcow2']) writeFileSync(path.join(scratch, f), '')
    return xml(path.join(scratch, 'data.raw'))
  },
  ready: (d) => {
    libvirt = d.libvirt
    scratch = d.scratch
    session = d.session
    original = d.libvirt.virsh('dumpxml', '--inactive', DOMAIN)
  }
})

describe('storage backend swap of a data disk', () => {
  const host = (): DomainHost => ({ label: 'phys', session, sudo: false })
  const guest = (): { label: string; session: LocalSession } => ({ label: 'vm1', session })

  it('has a disk of this computer to name the data disk after, and a block device to stand for the LVM volume', () => {
    expect(DATA_DISK, 'no vd*, sd* or hd* disk in /sys/block').toBeDefined()
    expect(BLOCK, 'no block device in /dev').toBeDefined()
  })

  it('refuses a prepared disk that is not there, a file where a block device is asked for, and the boot disk, before anything changes', async () => {
    const dev = DATA_DISK!
    const missing = path.join(scratch, "no such 'file'.qcow2").replace(/'/g, '')
    const sweep: { label: string; setup: DomainSetup }[] = [
      { label: 'storage=file-qcow2', setup: { storage: { backend: 'file-qcow2', sources: { [dev]: missing } } } },
      { label: 'storage=lvm', setup: { storage: { backend: 'lvm', sources: { [dev]: path.join(scratch, 'bench.raw') } } } }
    ]
    await expect(checkDomainSetups(host(), DOMAIN, sweep)).rejects.toThrow(
      `${DOMAIN} on phys cannot take the storage asked for, nothing was changed: phys has no file ${missing} for ${dev} (storage file-qcow2): create it (qemu-img create -f qcow2 ${missing} 10G), or correct the path in the plan; phys has no block device ${path.join(scratch, 'bench.raw')} for ${dev} (storage lvm): create the logical volume (lvcreate -L 10G -n NAME VG), or correct the path in the plan`
    )
    const originalsDir = path.join(scratch, 'domains-refused')
    await expect(applyDomainSetup(host(), DOMAIN, sweep[1]!.setup, guest(), { originalsDir })).rejects.toThrow(/^vb-storage on phys cannot take the storage asked for, nothing was changed: phys has no block device /)
    await expect(applyDomainSetup(host(), DOMAIN, { storage: { backend: 'lvm', sources: { hdz: BLOCK! } } }, guest(), { originalsDir })).rejects.toThrow(
      `${DOMAIN} on phys cannot take this setup, nothing was changed: hdz is the disk domain ${DOMAIN} boots from: VirtBench swaps the storage of data disks only; name a data disk, or allow it explicitly (allowBootDisk, storageBootDisk in a sweep) when ${BLOCK} boots the guest`
    )
    expect(existsSync(originalsDir)).toBe(false)
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)
  })

  it('swaps the disk to a block device, then to a qcow2 file, verifies each, and restores the original byte for byte', async () => {
    const dev = DATA_DISK!
    const originalsDir = path.join(scratch, 'domains')
    const id = libvirt.virsh('domid', DOMAIN).trim()
    const lvm = await applyDomainSetup(host(), DOMAIN, { storage: { backend: 'lvm', sources: { [dev]: BLOCK! } } }, guest(), { originalsDir, bootPollMs: 100 })
    expect(lvm.changes.map((c) => `${c.what}: ${c.from} -> ${c.to}`)).toEqual([`${dev} disk type: file -> block`, `${dev} source: ${path.join(scratch, 'data.raw')} -> ${BLOCK}`])
    expect(lvm.checks.map((c) => `${c.where} ${c.what} ${c.seen}`)).toEqual([`host ${dev} source block ${BLOCK}`, `host ${dev} format raw`, `guest ${dev} present yes`])
    expect(lvm.checks.every((c) => c.ok)).toBe(true)
    const live = libvirt.virsh('dumpxml', DOMAIN)
    expect(live).toMatch(new RegExp(`<disk type='block' device='disk'>\\s*<driver name='qemu' type='raw' cache='none'/>\\s*<source dev='${BLOCK}'/>`))
    // a storage change needs a boot: restarted (the test driver gives every start a new id)
    expect(libvirt.virsh('domid', DOMAIN).trim()).not.toBe(id)

    const qcow2 = await applyDomainSetup(host(), DOMAIN, { storage: { backend: 'file-qcow2', sources: { [dev]: path.join(scratch, 'bench.qcow2') } } }, guest(), { originalsDir, bootPollMs: 100 })
    expect(qcow2.checks.map((c) => `${c.where} ${c.what} ${c.seen}`)).toEqual([`host ${dev} source file ${path.join(scratch, 'bench.qcow2')}`, `host ${dev} format qcow2`, `guest ${dev} present yes`])
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toMatch(new RegExp(`<disk type='file' device='disk'>\\s*<driver name='qemu' type='qcow2' cache='none'/>\\s*<source file='${path.join(scratch, 'bench.qcow2')}'/>`))

    const saved = savedOriginals(originalsDir)
    expect(saved.map((s) => s.xml)).toEqual([original])
    await restoreDomain(host(), saved[0]!, guest(), { bootPollMs: 100 })
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)
  })
})
