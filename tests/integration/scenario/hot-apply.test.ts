/**
 * vCPUs and memory applied to a running guest without a restart (virsh setvcpus / setmem --live),
 * on libvirt's test driver behind a libvirtd of the test's own (test-libvirtd.ts; the physical host
 * and the guest are this computer): a change within the domain's maximum vCPUs and <memory> is
 * applied live (the domain keeps its id: it was not restarted), verified on the host and in the
 * guest, and put back live by the restore; a change beside it that needs a boot restarts the
 * domain (a new id); each restore gives back the original XML byte for byte.
 */
import { readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyDomainSetup, restoreDomain, savedOriginals, type StageMark } from '../../../src/main/scenario/apply'
import type { DomainHost } from '../../../src/main/scenario/virsh'
import type { LocalSession } from '../../../src/main/ssh/local-session'
import type { DomainSetup } from '../../../src/shared/model/scenario'
import { useTestDomain } from './test-domain'
import type { TestLibvirtd } from './test-libvirtd'

const DOMAIN = 'vb-hot'
// the guest is this computer: its processors and MemTotal are what the guest checks see
const CPUS = os.cpus().length
const MEM_TOTAL_KIB = Number(/^MemTotal:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'))![1])
// memory for which this computer's MemTotal is 75 to 100 % (about 90 %)
const MEMORY_MIB = Math.ceil(MEM_TOTAL_KIB / 1024 / 0.9)
const XML = `<domain type='test'>
  <name>${DOMAIN}</name>
  <memory unit='KiB'>${MEMORY_MIB * 1024 * 2}</memory>
  <currentMemory unit='KiB'>524288</currentMemory>
  <vcpu placement='static' current='1'>${CPUS + 2}</vcpu>
  <os>
    <type arch='x86_64'>hvm</type>
    <boot dev='hd'/>
  </os>
  <devices>
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw' cache='none' io='native'/>
      <source file='/var/lib/vb/boot.img'/>
      <target dev='vda' bus='virtio'/>
    </disk>
    <memballoon model='virtio'/>
  </devices>
</domain>
`

let libvirt: TestLibvirtd
let scratch: string
let session: LocalSession
useTestDomain({
  domain: DOMAIN,
  scratchPrefix: 'vb-hot-apply-',
  xml: () => XML,
  ready: (d) => {
    libvirt = d.libvirt
    scratch = d.scratch
    session = d.session
  }
})

/** `virsh dominfo`'s field. */
function info(field: string): string {
  return new RegExp(`^${field}:\\s*(.*)$`, 'm').exec(libvirt.virsh('dominfo', DOMAIN))![1]!.trim()
}

describe('hot-apply of vCPUs and memory', () => {
  const host = (): DomainHost => ({ label: 'phys', session, sudo: false })
  const guest = (): { label: string; session: LocalSession } => ({ label: 'vm1', session })

  it('applies vCPUs and memory live, without a restart, verifies them, and puts them back live', async () => {
    const originalsDir = path.join(scratch, 'domains-live')
    const original = libvirt.virsh('dumpxml', '--inactive', DOMAIN)
    const id = libvirt.virsh('domid', DOMAIN).trim()
    const stages: StageMark[] = []
    const setup: DomainSetup = { vcpus: CPUS, memoryMiB: MEMORY_MIB }
    const applied = await applyDomainSetup(host(), DOMAIN, setup, guest(), { originalsDir, bootPollMs: 100, onStage: (_m, s) => s && stages.push(s) })

    expect(applied.live).toEqual({ vcpus: CPUS, memoryKiB: MEMORY_MIB * 1024 })
    expect(applied.restarts).toEqual([`vCPUs: 1 -> ${CPUS}, applied live, no restart`, `currentMemory: 524288 -> ${MEMORY_MIB} MiB, applied live, no restart`])
    expect(stages.map((s) => `${s.kind} ${s.status}`)).toEqual(['define done', 'restart skipped', 'ssh skipped', 'verify done'])
    expect(stages[1]!.detail).toBe(`applied live: vCPUs ${CPUS}, memory ${MEMORY_MIB * 1024} KiB`)
    // not restarted: the test driver gives every start a new id
    expect(libvirt.virsh('domid', DOMAIN).trim()).toBe(id)
    expect(info('CPU\\(s\\)')).toBe(String(CPUS))
    expect(info('Used memory')).toBe(`${MEMORY_MIB * 1024} KiB`)
    expect(applied.checks.map((c) => `${c.where} ${c.what} ${c.ok}`)).toEqual(['host vCPUs true', 'host current memory true', 'guest processors true', 'guest MemTotal true'])
    // and persistent: the configuration has them too
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toContain(`<vcpu placement='static' current='${CPUS}'>${CPUS + 2}</vcpu>`)

    const restoreStages: StageMark[] = []
    const [saved] = savedOriginals(originalsDir)
    await restoreDomain(host(), saved!, guest(), { bootPollMs: 100, onStage: (_m, s) => s && restoreStages.push(s) })
    expect(restoreStages.map((s) => s.detail)).toEqual([`virsh define of the saved original, then live: vCPUs 1, memory 524288 KiB`, `applied live: vCPUs 1, memory 524288 KiB, no restart`])
    expect(libvirt.virsh('domid', DOMAIN).trim()).toBe(id)
    expect(info('CPU\\(s\\)')).toBe('1')
    expect(info('Used memory')).toBe('524288 KiB')
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)
  })

  it('restarts when a change beside the vCPUs needs a boot, and when the vCPUs exceed the maximum', async () => {
    const originalsDir = path.join(scratch, 'domains-restart')
    const original = libvirt.virsh('dumpxml', '--inactive', DOMAIN)
    const id = libvirt.virsh('domid', DOMAIN).trim()
    const stages: StageMark[] = []
    const applied = await applyDomainSetup(host(), DOMAIN, { vcpus: CPUS, io: 'threads' }, guest(), { originalsDir, bootPollMs: 100, onStage: (_m, s) => s && stages.push(s) })
    expect(applied.live).toBeUndefined()
    expect(applied.restarts).toEqual([`${DOMAIN} restarts: the new vda io, vCPUs take effect at its next boot`])
    expect(stages.map((s) => `${s.kind} ${s.status}`)).toEqual(['define done', 'restart running', 'ssh running', 'verify done'])
    const restarted = libvirt.virsh('domid', DOMAIN).trim()
    expect(restarted).not.toBe(id)
    expect(info('CPU\\(s\\)')).toBe(String(CPUS))

    const [saved] = savedOriginals(originalsDir)
    await restoreDomain(host(), saved!, guest(), { bootPollMs: 100 })
    expect(libvirt.virsh('domid', DOMAIN).trim()).not.toBe(restarted)
    expect(info('CPU\\(s\\)')).toBe('1')
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)

    // more vCPUs than the maximum raise it: a restart (the guest, this computer, then shows fewer: the check fails)
    const beforeMore = libvirt.virsh('domid', DOMAIN).trim()
    const more = applyDomainSetup(host(), DOMAIN, { vcpus: CPUS + 3 }, guest(), { originalsDir: path.join(scratch, 'domains-more'), bootPollMs: 100 })
    await expect(more).rejects.toThrow(`${DOMAIN} did not take the setup: guest processors: expected ${CPUS + 3}, seen ${CPUS}`)
    expect(libvirt.virsh('domid', DOMAIN).trim()).not.toBe(beforeMore)
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toContain(`<vcpu placement='static'>${CPUS + 3}</vcpu>`)
    const [savedMore] = savedOriginals(path.join(scratch, 'domains-more'))
    await restoreDomain(host(), savedMore!, guest(), { bootPollMs: 100 })
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)
  })
})
