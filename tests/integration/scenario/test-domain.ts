/**
 * One running domain on a test libvirtd of its own for a whole test file (test-libvirtd.ts): before
 * the tests, the daemon is started and virsh pointed at it (LIBVIRT_DEFAULT_URI, which a local
 * session inherits), a scratch folder made, `xml(scratch)` defined and started as `domain`, and a
 * LocalSession opened that stands for both the physical host and the guest; after them, all of it
 * undone. `ready` receives them once they are there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { LocalSession } from '../../../src/main/ssh/local-session'
import { startTestLibvirtd, type TestLibvirtd } from './test-libvirtd'

export interface TestDomain {
  libvirt: TestLibvirtd
  scratch: string
  session: LocalSession
}

export function useTestDomain(options: { domain: string; scratchPrefix: string; xml: (scratch: string) => string; ready: (d: TestDomain) => void }): void {
  const uriBefore = process.env.LIBVIRT_DEFAULT_URI
  let made: Partial<TestDomain> = {}
  beforeAll(async () => {
    const libvirt = await startTestLibvirtd()
    made = { libvirt }
    process.env.LIBVIRT_DEFAULT_URI = libvirt.uri
    const scratch = mkdtempSync(path.join(os.tmpdir(), options.scratchPrefix))
    made.scratch = scratch
    writeFileSync(path.join(scratch, 'domain.xml'), options.xml(scratch))
    libvirt.virsh('define', path.join(scratch, 'domain.xml'))
    libvirt.virsh('start', options.domain)
    const session = new LocalSession({ workRoot: path.join(scratch, 'work') })
    made.session = session
    options.ready({ libvirt, scratch, session })
  })
  afterAll(async () => {
    if (uriBefore === undefined) delete process.env.LIBVIRT_DEFAULT_URI
    else process.env.LIBVIRT_DEFAULT_URI = uriBefore
    await made.session?.close()
    await made.libvirt?.stop()
    if (made.scratch) rmSync(made.scratch, { recursive: true, force: true })
  })
}

/**
 * A test domain booted from vda alone, whose disk has no <driver> (as the test driver's own
 * domain): a sweep's io or cache factor adds one.
 */
export function vdaOnlyDomainXml(name: string): string {
  return `<domain type='test'>
  <name>${name}</name>
  <memory unit='KiB'>1048576</memory>
  <vcpu placement='static'>2</vcpu>
  <os>
    <type arch='x86_64'>hvm</type>
    <boot dev='hd'/>
  </os>
  <devices>
    <disk type='file' device='disk'>
      <source file='/var/lib/vb/boot.img'/>
      <target dev='vda' bus='virtio'/>
    </disk>
  </devices>
</domain>
`
}
