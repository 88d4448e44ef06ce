/**
 * The lab's command line, read into a command (pure):
 *   build | up <name> [--cache M] [--queues N] [--bus B] [--memory MIB] [--cpus N] [--io M] [--libvirt] [--timeout S]
 *   | down <name> | status | ssh <name> [command...]
 */
import { DISK_BUSES, DISK_CACHES, type DiskBus, type DiskCache } from '../src/shared/model/scenario'
import { LabUsageError, type GuestSpecInput, type IoMode } from './guest-spec'

export type LabCommand =
  | { kind: 'help' }
  | { kind: 'build' }
  | { kind: 'status' }
  | { kind: 'down'; name: string }
  | { kind: 'ssh'; name: string; command: string[] }
  | { kind: 'up'; guest: GuestSpecInput; bootTimeoutSeconds?: number }

export const LAB_USAGE = `Usage: npm run lab -- <command>

  build                      build the guest image (cached; a second build does nothing)
  up NAME [options]          boot a guest and print how to reach it
      --cache MODE           ${DISK_CACHES.join(' | ')} (default writeback)
      --queues N             virtio queues of the disks (needs N vCPUs)
      --bus BUS              ${DISK_BUSES.join(' | ')} (default virtio-blk)
      --memory MIB           guest memory (default 512)
      --cpus N               vCPUs (default 1, or the queue count)
      --io MODE              native | threads (default native with cache none/directsync)
      --libvirt              run it as a libvirt domain of the lab's own libvirtd
      --timeout SECONDS      how long to wait for SSH (default 240 under TCG, 90 with KVM)
  down NAME                  stop a guest and remove its disks
  status                     the image, the guests and the lab's libvirtd
  ssh NAME [COMMAND...]      log in to a guest as root (or run COMMAND there)

Environment: VIRTBENCH_LAB_DIR (cache, default ~/.cache/virtbench-lab), VIRTBENCH_LAB_ACCEL (kvm or tcg).`

function wholeNumber(flag: string, value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value)) throw new LabUsageError(`${flag} needs a whole number, not ${JSON.stringify(value ?? '')}`)
  return Number(value)
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T {
  if (value === undefined || !(allowed as readonly string[]).includes(value)) {
    throw new LabUsageError(`${flag} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value ?? '')}`)
  }
  return value as T
}

function needName(command: string, name: string | undefined): string {
  if (name === undefined || name.startsWith('-')) throw new LabUsageError(`${command} needs a guest name: npm run lab -- ${command} NAME`)
  return name
}

export function parseLabArgs(argv: readonly string[]): LabCommand {
  const [command, ...rest] = argv
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return { kind: 'help' }
    case 'build':
    case 'status':
      if (rest.length > 0) throw new LabUsageError(`${command} takes no arguments, got ${rest.join(' ')}`)
      return { kind: command }
    case 'down':
      if (rest.length !== 1) throw new LabUsageError('down takes one guest name: npm run lab -- down NAME')
      return { kind: 'down', name: needName('down', rest[0]) }
    case 'ssh':
      return { kind: 'ssh', name: needName('ssh', rest[0]), command: rest.slice(1) }
    case 'up': {
      const name = needName('up', rest[0])
      const guest: GuestSpecInput = { name }
      let bootTimeoutSeconds: number | undefined
      for (let i = 1; i < rest.length; i++) {
        const flag = rest[i]!
        const value = (): string | undefined => rest[++i]
        switch (flag) {
          case '--cache':
            guest.cache = oneOf<DiskCache>(flag, value(), DISK_CACHES)
            break
          case '--bus':
            guest.bus = oneOf<DiskBus>(flag, value(), DISK_BUSES)
            break
          case '--io':
            guest.io = oneOf<IoMode>(flag, value(), ['native', 'threads'])
            break
          case '--queues':
            guest.queues = wholeNumber(flag, value())
            break
          case '--memory':
            guest.memoryMiB = wholeNumber(flag, value())
            break
          case '--cpus':
            guest.cpus = wholeNumber(flag, value())
            break
          case '--timeout':
            bootTimeoutSeconds = wholeNumber(flag, value())
            break
          case '--libvirt':
            guest.libvirt = true
            break
          default:
            throw new LabUsageError(`up does not know ${JSON.stringify(flag)}; see npm run lab -- help`)
        }
      }
      return { kind: 'up', guest, ...(bootTimeoutSeconds !== undefined ? { bootTimeoutSeconds } : {}) }
    }
    default:
      throw new LabUsageError(`unknown lab command ${JSON.stringify(command)}; see npm run lab -- help`)
  }
}
