/**
 * A lab guest's setup (the scenario as parameters) and what follows from it: the qemu command
 * line and the libvirt domain XML that run the same guest. Pure: no files, no processes.
 */
import { DISK_BUSES, DISK_CACHES, type DiskBus, type DiskCache } from '../src/shared/model/scenario'

export type Accelerator = 'kvm' | 'tcg'
export type IoMode = 'native' | 'threads'

export interface GuestSpecInput {
  name: string
  /** Cache mode of every disk of the guest (default writeback, QEMU's own default). */
  cache?: DiskCache
  /** virtio queues of the disks (virtio-blk) or of the virtio-scsi controller. */
  queues?: number
  bus?: DiskBus
  memoryMiB?: number
  cpus?: number
  /** io= of the disks; default native where the cache mode opens the files O_DIRECT, else threads. */
  io?: IoMode
  libvirt?: boolean
}

export interface GuestSpec {
  name: string
  cache: DiskCache
  queues: number | undefined
  bus: DiskBus
  memoryMiB: number
  cpus: number
  io: IoMode
  libvirt: boolean
}

export class LabUsageError extends Error {}

const DIRECT_CACHES: readonly DiskCache[] = ['none', 'directsync']

/** Validates the input and fills the defaults; throws LabUsageError with a sentence naming the bad value. */
export function resolveGuestSpec(input: GuestSpecInput): GuestSpec {
  const { name } = input
  if (!/^[a-z0-9][a-z0-9-]{0,30}$/.test(name)) {
    throw new LabUsageError(`a guest name is 1 to 31 lower-case letters, digits or "-", starting with a letter or digit, not ${JSON.stringify(name)}`)
  }
  if (name === 'libvirt') throw new LabUsageError('"libvirt" is the name of the lab libvirtd\'s own folder; call the guest something else')
  const cache = input.cache ?? 'writeback'
  if (!DISK_CACHES.includes(cache)) throw new LabUsageError(`--cache must be one of ${DISK_CACHES.join(', ')}, not ${JSON.stringify(cache)}`)
  const bus = input.bus ?? 'virtio-blk'
  if (!DISK_BUSES.includes(bus)) throw new LabUsageError(`--bus must be one of ${DISK_BUSES.join(', ')}, not ${JSON.stringify(bus)}`)
  const memoryMiB = input.memoryMiB ?? 512
  if (!Number.isInteger(memoryMiB) || memoryMiB < 256 || memoryMiB > 16384) {
    throw new LabUsageError(`--memory must be a whole number of MiB from 256 to 16384, not ${JSON.stringify(input.memoryMiB)}`)
  }
  const queues = input.queues
  if (queues !== undefined) {
    if (!Number.isInteger(queues) || queues < 1 || queues > 16) throw new LabUsageError(`--queues must be a whole number from 1 to 16, not ${JSON.stringify(queues)}`)
    if (bus === 'ide' || bus === 'sata') throw new LabUsageError(`--queues applies to virtio-blk and virtio-scsi disks; an ${bus.toUpperCase()} disk has one queue`)
  }
  const cpus = input.cpus ?? queues ?? 1
  if (!Number.isInteger(cpus) || cpus < 1 || cpus > 16) throw new LabUsageError(`--cpus must be a whole number from 1 to 16, not ${JSON.stringify(input.cpus)}`)
  if (queues !== undefined && queues > cpus) {
    throw new LabUsageError(`${queues} disk queues need at least ${queues} vCPUs (Linux uses one queue per vCPU at most), but --cpus is ${cpus}`)
  }
  const io = input.io ?? (DIRECT_CACHES.includes(cache) ? 'native' : 'threads')
  if (io !== 'native' && io !== 'threads') throw new LabUsageError(`--io must be native or threads, not ${JSON.stringify(io)}`)
  if (io === 'native' && !DIRECT_CACHES.includes(cache)) {
    throw new LabUsageError(`io=native needs a cache mode that bypasses the host page cache (none or directsync), not cache=${cache}`)
  }
  return { name, cache, queues, bus, memoryMiB, cpus, io, libvirt: input.libvirt ?? false }
}

/** The files a guest runs from. */
export interface GuestFiles {
  kernel: string
  initrd: string
  /** qcow2 overlay on the image's raw root disk. */
  rootOverlay: string
  /** Raw, no filesystem: for raw-device tests. */
  rawDisk: string
  /** qcow2 with ext4, mounted at /data. */
  dataDisk: string
  serialLog: string
  pidFile: string
}

export interface GuestPorts {
  ssh: number
  /** Host ports forwarded to the guest's 5201, 5202... (iperf3 servers). */
  iperf: number[]
}

/** Where the guest's iperf3 servers listen: the first forwarded port goes to 5201. */
export const GUEST_IPERF_PORT = 5201

export const KERNEL_COMMAND_LINE = 'root=LABEL=vbroot rw console=ttyS0 net.ifnames=0 panic=-1'

interface DiskSlot {
  file: string
  format: 'raw' | 'qcow2'
  role: 'root' | 'raw' | 'data'
}

function disksOf(files: GuestFiles): DiskSlot[] {
  return [
    { file: files.rootOverlay, format: 'qcow2', role: 'root' },
    { file: files.rawDisk, format: 'raw', role: 'raw' },
    { file: files.dataDisk, format: 'qcow2', role: 'data' }
  ]
}

/** The device names Linux gives the guest's three disks (root, raw data, qcow2 data) on this bus. */
export function guestDevices(bus: DiskBus): { root: string; raw: string; data: string } {
  const prefix = bus === 'virtio-blk' ? 'vd' : 'sd'
  return { root: `${prefix}a`, raw: `${prefix}b`, data: `${prefix}c` }
}

/** `user,...` netdev: restricted (the guest reaches nothing), forwards only from 127.0.0.1. */
export function userNetdev(id: string, ports: GuestPorts): string {
  const forwards = [`hostfwd=tcp:127.0.0.1:${ports.ssh}-:22`]
  ports.iperf.forEach((port, i) => {
    forwards.push(`hostfwd=tcp:127.0.0.1:${port}-:${GUEST_IPERF_PORT + i}`, `hostfwd=udp:127.0.0.1:${port}-:${GUEST_IPERF_PORT + i}`)
  })
  return ['user', `id=${id}`, 'restrict=on', ...forwards].join(',')
}

/** A guest's NIC on the lab network (lab/guest-network.ts): a tap device qemu creates, and the NIC's MAC. */
export interface LabNic {
  tap: string
  mac: string
}

/** What startGuest needs to put a guest on the lab network. */
export interface GuestNic extends LabNic {
  /** Called once qemu runs (the tap exists): moves the tap into the lab's namespace and onto its bridge. */
  attach(): Promise<void>
  /** A shell script run in the guest as root once it answers SSH: address, MTU and routes of the NIC. */
  guestSetup: string
}

/** The qemu options of the lab NIC: a tap qemu creates (no helper scripts), as a virtio NIC with the member's MAC. */
export function labNicArgs(nic: LabNic, pciAddress?: string): string[] {
  if (!/^[A-Za-z0-9_-]{1,15}$/.test(nic.tap)) throw new LabUsageError(`a tap device name is 1 to 15 letters, digits, "-" or "_", not ${JSON.stringify(nic.tap)}`)
  return [
    '-netdev', `tap,id=lab0,ifname=${nic.tap},script=no,downscript=no`,
    '-device', `virtio-net-pci,netdev=lab0,mac=${nic.mac}${pciAddress ? `,bus=pci.0,addr=${pciAddress}` : ''}`
  ]
}

function checkCommaFree(value: string, what: string): string {
  // qemu's option syntax uses "," as separator; a path with one would need doubling
  if (value.includes(',')) throw new LabUsageError(`${what} ${JSON.stringify(value)} contains a comma, which qemu's options cannot take: use a lab directory without commas`)
  return value
}

/** The complete argv of plain qemu (without the program name). */
export function qemuArgv(spec: GuestSpec, files: GuestFiles, ports: GuestPorts, accel: Accelerator, nic?: LabNic): string[] {
  const args = [
    '-name', `vb-lab-${spec.name}`,
    '-machine', 'pc',
    '-accel', accel,
    ...(accel === 'kvm' ? ['-cpu', 'host'] : []),
    '-m', String(spec.memoryMiB),
    '-smp', String(spec.cpus),
    '-nodefaults', '-no-user-config', '-no-reboot',
    '-display', 'none',
    '-monitor', 'none',
    '-serial', `file:${checkCommaFree(files.serialLog, 'the serial log path')}`,
    '-pidfile', files.pidFile,
    '-daemonize',
    '-kernel', files.kernel,
    '-initrd', files.initrd,
    '-append', KERNEL_COMMAND_LINE,
    '-netdev', userNetdev('net0', ports),
    '-device', 'virtio-net-pci,netdev=net0',
    ...(nic ? labNicArgs(nic) : [])
  ]
  const queues = spec.queues
  if (spec.bus === 'virtio-scsi') args.push('-device', `virtio-scsi-pci,id=scsi0${queues !== undefined ? `,num_queues=${queues}` : ''}`)
  if (spec.bus === 'sata') args.push('-device', 'ahci,id=ahci0')
  disksOf(files).forEach((disk, i) => {
    const id = `disk${i}`
    args.push('-drive', `file=${checkCommaFree(disk.file, 'the disk path')},format=${disk.format},if=none,id=${id},cache=${spec.cache},aio=${spec.io}`)
    switch (spec.bus) {
      case 'virtio-blk':
        args.push('-device', `virtio-blk-pci,drive=${id}${queues !== undefined ? `,num-queues=${queues}` : ''}`)
        break
      case 'virtio-scsi':
        args.push('-device', `scsi-hd,drive=${id},bus=scsi0.0,channel=0,scsi-id=${i},lun=0`)
        break
      case 'sata':
        args.push('-device', `ide-hd,drive=${id},bus=ahci0.${i}`)
        break
      case 'ide':
        args.push('-device', `ide-hd,drive=${id},bus=ide.${Math.floor(i / 2)},unit=${i % 2}`)
        break
    }
  })
  return args
}

/** The libvirt domain name of a lab guest. */
export function domainName(guest: string): string {
  return `vb-lab-${guest}`
}

function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;').replace(/"/g, '&quot;')
}

const LIBVIRT_BUS: Record<DiskBus, string> = { 'virtio-blk': 'virtio', 'virtio-scsi': 'scsi', sata: 'sata', ide: 'ide' }

/**
 * The same guest as a libvirt domain: disks, cache, io and queues in `<driver>` where
 * `virsh dumpxml` shows them; qemu's user-mode network (which libvirt's own `<interface
 * type='user'>` cannot restrict) through `qemu:commandline`.
 */
export function domainXml(spec: GuestSpec, files: GuestFiles, ports: GuestPorts, accel: Accelerator, emulator: string, nic?: LabNic): string {
  const queues = spec.queues
  const devices = guestDevices(spec.bus)
  const targets = [devices.root, devices.raw, devices.data]
  const disk = (slot: DiskSlot, i: number): string => {
    const driverQueues = spec.bus === 'virtio-blk' && queues !== undefined ? ` queues='${queues}'` : ''
    const address = spec.bus === 'virtio-scsi' ? `\n      <address type='drive' controller='0' bus='0' target='${i}' unit='0'/>` : ''
    return [
      `    <disk type='file' device='disk'>`,
      `      <driver name='qemu' type='${slot.format}' cache='${spec.cache}' io='${spec.io}'${driverQueues}/>`,
      `      <source file='${xmlText(slot.file)}'/>`,
      `      <target dev='${targets[i]}' bus='${LIBVIRT_BUS[spec.bus]}'/>${address}`,
      `    </disk>`
    ].join('\n')
  }
  const controller =
    spec.bus === 'virtio-scsi'
      ? [`    <controller type='scsi' index='0' model='virtio-scsi'>${queues !== undefined ? `\n      <driver queues='${queues}'/>\n    ` : ''}</controller>`]
      : spec.bus === 'sata'
        ? [`    <controller type='sata' index='0'/>`]
        : []
  // the last PCI slot: the devices libvirt places itself are numbered from slot 2 up
  const qemuArgs = [
    '-netdev', userNetdev('vbnet0', ports), '-device', 'virtio-net-pci,netdev=vbnet0,bus=pci.0,addr=0x1f',
    ...(nic ? labNicArgs(nic, '0x1e') : [])
  ]
  return [
    `<domain type='${accel === 'kvm' ? 'kvm' : 'qemu'}' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>`,
    `  <name>${domainName(spec.name)}</name>`,
    `  <memory unit='MiB'>${spec.memoryMiB}</memory>`,
    `  <vcpu>${spec.cpus}</vcpu>`,
    `  <os>`,
    `    <type arch='x86_64' machine='pc'>hvm</type>`,
    `    <kernel>${xmlText(files.kernel)}</kernel>`,
    `    <initrd>${xmlText(files.initrd)}</initrd>`,
    `    <cmdline>${KERNEL_COMMAND_LINE}</cmdline>`,
    `  </os>`,
    `  <features><acpi/></features>`,
    ...(accel === 'kvm' ? [`  <cpu mode='host-passthrough'/>`] : []),
    `  <clock offset='utc'/>`,
    `  <on_poweroff>destroy</on_poweroff>`,
    `  <on_reboot>destroy</on_reboot>`,
    `  <on_crash>destroy</on_crash>`,
    `  <devices>`,
    `    <emulator>${xmlText(emulator)}</emulator>`,
    ...disksOf(files).map(disk),
    ...controller,
    `    <serial type='file'>`,
    `      <source path='${xmlText(files.serialLog)}'/>`,
    `      <target port='0'/>`,
    `    </serial>`,
    `    <memballoon model='none'/>`,
    `  </devices>`,
    `  <qemu:commandline>`,
    ...qemuArgs.map((a) => `    <qemu:arg value='${xmlText(a)}'/>`),
    `  </qemu:commandline>`,
    `</domain>`,
    ''
  ].join('\n')
}
