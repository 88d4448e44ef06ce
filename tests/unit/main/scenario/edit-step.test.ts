import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeChanges, editDomain, editStep, type DomainEditResult } from '../../../../src/main/scenario/domain-edit'
import type { DomainSetup } from '../../../../src/shared/model/scenario'

// `virsh dumpxml --inactive` of a lab guest: vda (boot), vdb and vdc on virtio, cache=writeback, io=threads
const LAB = readFileSync(path.join(__dirname, 'fixtures/lab-domain-transient.xml'), 'utf8')
const DOMAIN = 'vb-lab-sweep'

function ok(r: DomainEditResult): Extract<DomainEditResult, { ok: true }> {
  if (!r.ok) throw new Error(r.errors.join('\n'))
  return r
}

/** The XML libvirt gives back after defining `xml` with vdc moved to SATA: the disk gets its drive address. */
function definedSata(xml: string): string {
  expect(xml).toContain("<target dev='sda' bus='sata'/>\n")
  return xml.replace("<target dev='sda' bus='sata'/>\n", "<target dev='sda' bus='sata'/>\n      <address type='drive' controller='0' bus='0' target='0' unit='0'/>\n")
}

const changed = (r: DomainEditResult): string[] => ok(r).diff.split('\n').filter((l) => /^[-+] /.test(l))

describe('editStep: each step of a sweep is the original XML plus its own combination', () => {
  const toSata: DomainSetup = { bus: { disk: 'vdc', to: 'sata' }, cache: 'none' }
  const backToVirtio: DomainSetup = { bus: { disk: 'vdc', to: 'virtio-blk' }, cache: 'none' }
  const sataWriteback: DomainSetup = { bus: { disk: 'vdc', to: 'sata' }, cache: 'writeback' }

  it('step 1 moves vdc to SATA; step 2, naming vdc as the original does, moves it back; step 3 moves it again', () => {
    // step 1: the domain is the original
    const step1 = ok(editStep(DOMAIN, LAB, LAB, toSata))
    expect(step1.xml).toBe(ok(editDomain(DOMAIN, LAB, toSata)).xml)
    expect(describeChanges(step1.changes)).toBe('vda cache: writeback -> none; vdb cache: writeback -> none; vdc bus: virtio -> sata; vdc target dev: vdc -> sda; vdc cache: writeback -> none')
    const after1 = definedSata(step1.xml)

    // the bug: editing the previous step's XML finds no vdc any more
    const stacked = editDomain(DOMAIN, after1, backToVirtio)
    expect(stacked.ok ? [] : stacked.errors).toEqual([`domain ${DOMAIN} has no disk vdc to move to virtio-blk (its disks are vda, vdb, sda)`])

    // step 2: the original plus cache=none, vdc back where the original has it (its PCI address too)
    const step2 = ok(editStep(DOMAIN, LAB, after1, backToVirtio))
    expect(step2.xml).toBe(ok(editDomain(DOMAIN, LAB, { cache: 'none' })).xml)
    expect(step2.xml).toContain("<target dev='vdc' bus='virtio'/>\n      <alias name='virtio-disk2'/>\n      <address type='pci' domain='0x0000' bus='0x00' slot='0x04' function='0x0'/>")
    expect(changed(step2)).toEqual([
      "-       <target dev='sda' bus='sata'/>",
      "-       <address type='drive' controller='0' bus='0' target='0' unit='0'/>",
      "+       <target dev='vdc' bus='virtio'/>",
      "+       <address type='pci' domain='0x0000' bus='0x00' slot='0x04' function='0x0'/>"
    ])
    // it changes the domain as it is, so it restarts it, and says it starts again from the original
    expect(step2.changes[0]).toEqual({ what: 'base', from: "the previous step's XML", to: 'the original XML' })
    expect(step2.restarts).toHaveLength(1)

    // step 3: the original plus SATA and writeback (the original's cache): no trace of step 2's cache=none
    const step3 = ok(editStep(DOMAIN, LAB, step2.xml, sataWriteback))
    expect(step3.xml).toBe(ok(editDomain(DOMAIN, LAB, sataWriteback)).xml)
    expect(step3.xml).not.toContain("cache='none'")
    // told from the domain as it is, since that gives the same XML
    expect(describeChanges(step3.changes)).toBe('vda cache: none -> writeback; vdb cache: none -> writeback; vdc bus: virtio -> sata; vdc target dev: vdc -> sda; vdc cache: none -> writeback')
  })

  it('a domain that has the step already (its XML as libvirt gave it back after VirtBench defined it) changes nothing', () => {
    const step1 = ok(editStep(DOMAIN, LAB, LAB, toSata))
    const after1 = definedSata(step1.xml)
    const resumed = ok(editStep(DOMAIN, LAB, after1, toSata, { xml: step1.xml, defined: after1 }))
    expect(resumed).toMatchObject({ xml: step1.xml, diff: '', changes: [], restarts: [] })
    // or the very XML of the step (libvirt changed nothing in it)
    expect(ok(editStep(DOMAIN, LAB, step1.xml, toSata))).toMatchObject({ diff: '', changes: [], restarts: [] })
    // the record of another setup, or a domain changed since, is no reason to skip the restart
    expect(ok(editStep(DOMAIN, LAB, after1, sataWriteback, { xml: step1.xml, defined: after1 })).restarts).toHaveLength(1)
    expect(ok(editStep(DOMAIN, LAB, after1, toSata, { xml: step1.xml, defined: step1.xml })).restarts).toHaveLength(1)
    // the original with a combination it has already: nothing to change
    expect(ok(editStep(DOMAIN, LAB, LAB, { bus: { disk: 'vdc', to: 'virtio-blk' }, cache: 'writeback' }))).toMatchObject({ xml: LAB, diff: '', changes: [], restarts: [] })
  })

  it('checks the combination against the original: disks are named as there', () => {
    const after1 = definedSata(ok(editStep(DOMAIN, LAB, LAB, toSata)).xml)
    const r = editStep(DOMAIN, LAB, after1, { bus: { disk: 'sda', to: 'virtio-blk' } })
    expect(r.ok ? [] : r.errors).toEqual([`domain ${DOMAIN} has no disk sda to move to virtio-blk (its disks are vda, vdb, vdc)`])
  })
})

describe('editDomain: a <driver> it adds', () => {
  it('goes first in the disk, where libvirt writes it, so that the XML libvirt gives back is the XML defined', () => {
    const xml = "<domain type='kvm'>\n  <name>d</name>\n  <devices>\n    <disk type='file' device='disk'>\n      <source file='/a.img'/>\n      <target dev='vdb' bus='virtio'/>\n    </disk>\n  </devices>\n</domain>\n"
    expect(ok(editDomain('d', xml, { cache: 'none' })).xml).toBe(xml.replace('      <source', "      <driver name='qemu' cache='none'/>\n      <source"))
    const inline = "<domain><devices><disk type='file' device='disk'><source file='/a.img'/><target dev='vdb' bus='virtio'/></disk></devices></domain>"
    expect(ok(editDomain('d', inline, { io: 'threads' })).xml).toBe(inline.replace('<source', "<driver name='qemu' io='threads'/><source"))
  })
})
