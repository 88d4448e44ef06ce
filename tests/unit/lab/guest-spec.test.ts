import { describe, expect, it } from 'vitest'
import { domainXml, guestDevices, qemuArgv, resolveGuestSpec, userNetdev, type GuestFiles } from '../../../lab/guest-spec'
import { parseDomainDisks } from '../../../src/main/engine/environment/domain-xml'

const files: GuestFiles = {
  kernel: '/lab/images/k/vmlinuz',
  initrd: '/lab/images/k/initrd.img',
  rootOverlay: '/lab/guests/vm1/root.qcow2',
  rawDisk: '/lab/guests/vm1/raw.img',
  dataDisk: '/lab/guests/vm1/data.qcow2',
  serialLog: '/lab/guests/vm1/serial.log',
  pidFile: '/lab/guests/vm1/qemu.pid'
}
const ports = { ssh: 40022, iperf: [40201, 40202] }

/** The values of every occurrence of `flag` in argv. */
function valuesOf(argv: string[], flag: string): string[] {
  return argv.flatMap((a, i) => (a === flag ? [argv[i + 1]!] : []))
}

describe('guest spec', () => {
  it('fills the defaults: writeback (QEMU default), virtio-blk, 512 MiB, 1 vCPU, io=threads', () => {
    expect(resolveGuestSpec({ name: 'vm1' })).toEqual({ name: 'vm1', cache: 'writeback', queues: undefined, bus: 'virtio-blk', memoryMiB: 512, cpus: 1, io: 'threads', libvirt: false })
  })

  it('opens direct-I/O cache modes with io=native, and gives as many vCPUs as queues', () => {
    expect(resolveGuestSpec({ name: 'a', cache: 'none', queues: 2 })).toMatchObject({ io: 'native', cpus: 2, queues: 2 })
    expect(resolveGuestSpec({ name: 'a', cache: 'directsync' }).io).toBe('native')
    expect(resolveGuestSpec({ name: 'a', cache: 'unsafe' }).io).toBe('threads')
  })

  it.each([
    [{ name: 'Bad Name' }, 'a guest name is 1 to 31 lower-case letters'],
    [{ name: 'libvirt' }, 'call the guest something else'],
    [{ name: 'a', queues: 2, cpus: 1 }, '2 disk queues need at least 2 vCPUs'],
    [{ name: 'a', queues: 2, bus: 'sata' as const }, 'an SATA disk has one queue'],
    [{ name: 'a', queues: 0 }, '--queues must be a whole number from 1 to 16'],
    [{ name: 'a', memoryMiB: 64 }, '--memory must be a whole number of MiB from 256'],
    [{ name: 'a', cache: 'writeback' as const, io: 'native' as const }, 'io=native needs a cache mode that bypasses the host page cache'],
    [{ name: 'a', cache: 'bogus' as never }, '--cache must be one of none, writeback']
  ])('refuses %j with a sentence naming the value', (input, message) => {
    expect(() => resolveGuestSpec(input)).toThrow(message)
  })

  it('forwards SSH and the iperf3 ports from 127.0.0.1 only, on a restricted user-mode network', () => {
    expect(userNetdev('net0', ports)).toBe(
      'user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:40022-:22,hostfwd=tcp:127.0.0.1:40201-:5201,hostfwd=udp:127.0.0.1:40201-:5201,hostfwd=tcp:127.0.0.1:40202-:5202,hostfwd=udp:127.0.0.1:40202-:5202'
    )
  })

  it('builds the plain qemu command: three disks with the cache mode, queues on virtio-blk, direct kernel boot', () => {
    const argv = qemuArgv(resolveGuestSpec({ name: 'vm1', cache: 'none', queues: 2 }), files, ports, 'tcg')
    expect(valuesOf(argv, '-accel')).toEqual(['tcg'])
    expect(argv).not.toContain('-cpu')
    expect(valuesOf(argv, '-smp')).toEqual(['2'])
    expect(valuesOf(argv, '-m')).toEqual(['512'])
    expect(valuesOf(argv, '-kernel')).toEqual([files.kernel])
    expect(valuesOf(argv, '-append')).toEqual(['root=LABEL=vbroot rw console=ttyS0 net.ifnames=0 panic=-1'])
    expect(valuesOf(argv, '-drive')).toEqual([
      'file=/lab/guests/vm1/root.qcow2,format=qcow2,if=none,id=disk0,cache=none,aio=native',
      'file=/lab/guests/vm1/raw.img,format=raw,if=none,id=disk1,cache=none,aio=native',
      'file=/lab/guests/vm1/data.qcow2,format=qcow2,if=none,id=disk2,cache=none,aio=native'
    ])
    expect(valuesOf(argv, '-device')).toEqual([
      'virtio-net-pci,netdev=net0',
      'virtio-blk-pci,drive=disk0,num-queues=2',
      'virtio-blk-pci,drive=disk1,num-queues=2',
      'virtio-blk-pci,drive=disk2,num-queues=2'
    ])
    expect(argv).toEqual(expect.arrayContaining(['-nodefaults', '-daemonize', '-no-reboot']))
    expect(valuesOf(argv, '-pidfile')).toEqual([files.pidFile])
  })

  it('puts the disks on the bus asked for, and KVM gets the host CPU', () => {
    const scsi = qemuArgv(resolveGuestSpec({ name: 'a', bus: 'virtio-scsi', queues: 2 }), files, ports, 'kvm')
    expect(valuesOf(scsi, '-cpu')).toEqual(['host'])
    expect(valuesOf(scsi, '-device').slice(1)).toEqual([
      'virtio-scsi-pci,id=scsi0,num_queues=2',
      'scsi-hd,drive=disk0,bus=scsi0.0,channel=0,scsi-id=0,lun=0',
      'scsi-hd,drive=disk1,bus=scsi0.0,channel=0,scsi-id=1,lun=0',
      'scsi-hd,drive=disk2,bus=scsi0.0,channel=0,scsi-id=2,lun=0'
    ])
    expect(valuesOf(qemuArgv(resolveGuestSpec({ name: 'a', bus: 'sata' }), files, ports, 'tcg'), '-device').slice(1)).toEqual([
      'ahci,id=ahci0', 'ide-hd,drive=disk0,bus=ahci0.0', 'ide-hd,drive=disk1,bus=ahci0.1', 'ide-hd,drive=disk2,bus=ahci0.2'
    ])
    expect(valuesOf(qemuArgv(resolveGuestSpec({ name: 'a', bus: 'ide' }), files, ports, 'tcg'), '-device').slice(1)).toEqual([
      'ide-hd,drive=disk0,bus=ide.0,unit=0', 'ide-hd,drive=disk1,bus=ide.0,unit=1', 'ide-hd,drive=disk2,bus=ide.1,unit=0'
    ])
    expect(guestDevices('virtio-blk')).toEqual({ root: 'vda', raw: 'vdb', data: 'vdc' })
    expect(guestDevices('sata')).toEqual({ root: 'sda', raw: 'sdb', data: 'sdc' })
  })

  it('refuses a path qemu cannot take (a comma splits its options)', () => {
    expect(() => qemuArgv(resolveGuestSpec({ name: 'a' }), { ...files, rawDisk: '/lab,x/raw.img' }, ports, 'tcg')).toThrow('contains a comma')
  })

  it("writes a domain whose disks read back (with the engine's own parser) as the scenario asked", () => {
    const xml = domainXml(resolveGuestSpec({ name: 'vm1', cache: 'none', queues: 2, libvirt: true }), files, ports, 'tcg', '/usr/bin/qemu-system-x86_64')
    expect(xml).toContain("<domain type='qemu' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>")
    expect(xml).toContain('<name>vb-lab-vm1</name>')
    expect(xml).toContain(`<qemu:arg value='${userNetdev('vbnet0', ports)}'/>`)
    // on a PCI slot libvirt does not hand out itself
    expect(xml).toContain("<qemu:arg value='virtio-net-pci,netdev=vbnet0,bus=pci.0,addr=0x1f'/>")
    const parsed = parseDomainDisks(xml)
    expect(parsed).toEqual({
      ok: true,
      disks: [
        { device: 'vda', bus: 'virtio-blk', cache: 'none', io: 'native', queues: 2, format: 'qcow2', sourceType: 'file', source: files.rootOverlay },
        { device: 'vdb', bus: 'virtio-blk', cache: 'none', io: 'native', queues: 2, format: 'raw', sourceType: 'file', source: files.rawDisk },
        { device: 'vdc', bus: 'virtio-blk', cache: 'none', io: 'native', queues: 2, format: 'qcow2', sourceType: 'file', source: files.dataDisk }
      ]
    })
    const scsi = parseDomainDisks(domainXml(resolveGuestSpec({ name: 'vm1', bus: 'virtio-scsi', queues: 2 }), files, ports, 'kvm', '/usr/bin/qemu-system-x86_64'))
    expect(scsi.ok && scsi.disks.map((d) => [d.device, d.bus, d.queues, d.cache])).toEqual([
      ['sda', 'virtio-scsi', 2, 'writeback'],
      ['sdb', 'virtio-scsi', 2, 'writeback'],
      ['sdc', 'virtio-scsi', 2, 'writeback']
    ])
  })

  it('escapes paths in the XML', () => {
    const xml = domainXml(resolveGuestSpec({ name: 'a' }), { ...files, serialLog: "/lab/it's <here> & there" }, ports, 'tcg', '/usr/bin/qemu-system-x86_64')
    expect(xml).toContain("<source path='/lab/it&apos;s &lt;here&gt; &amp; there'/>")
  })
})
