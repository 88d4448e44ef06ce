/**
 * A disk of its own for a known-truth target: a sparse image file, attached to a loop device,
 * formatted ext4 and mounted. Its `major:minor` is what the blkio / io throttle of the target's
 * cgroup names, so the target's work directory is on a device whose speed the test sets.
 *
 * Everything lives in one directory whose name says who made it (owner.ts): `<dir>/disk.img`
 * and the mount point `<dir>/mnt`; leftovers.ts finds the loop devices and mounts of a crashed
 * run by that name.
 */
import { readFileSync } from 'node:fs'
import { mkdir, open, rm } from 'node:fs/promises'
import path from 'node:path'
import { runCommand, sleep, tryCommand } from './command'

export interface LoopDisk {
  image: string
  /** `/dev/loopN` */
  device: string
  /** `major:minor` of the device, as cgroup throttles name it. */
  majorMinor: string
  mountPoint: string
  /** Unmounts, detaches the loop device and deletes the image. Idempotent. */
  stop(): Promise<void>
}

export interface LoopDiskOptions {
  /** A directory of ours (its name from ownedName()) that holds the image and the mount point. */
  dir: string
  /** Size of the sparse image (default 256 MiB). */
  sizeBytes?: number
}

export const DEFAULT_DISK_BYTES = 256 * 2 ** 20

/** `major:minor` of a block device such as /dev/loop3, from sysfs. */
export function majorMinorOf(device: string): string {
  const text = readFileSync(`/sys/class/block/${path.basename(device)}/dev`, 'utf8').trim()
  if (!/^\d+:\d+$/.test(text)) throw new Error(`known-truth harness: unexpected major:minor "${text}" for ${device}`)
  return text
}

/** Unmounts `mountPoint`, waiting up to 5 s for it to be free, then detaching it lazily. */
export async function unmount(mountPoint: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (Date.now() < deadline) {
    if (await tryCommand('umount', [mountPoint], { timeoutMs: 10_000 })) return
    if (!isMounted(mountPoint)) return
    await sleep(100)
  }
  await runCommand('umount', ['--lazy', mountPoint])
}

/** Mount points in /proc/self/mountinfo (decoded). */
export function mountPoints(): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((p): p is string => p !== undefined)
    .map((p) => p.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))))
}

function isMounted(mountPoint: string): boolean {
  return mountPoints().includes(mountPoint)
}

/** Detaches a loop device (the kernel finishes it once the last user lets go). */
export async function detachLoop(device: string): Promise<void> {
  await tryCommand('losetup', ['--detach', device])
}

export async function createLoopDisk(options: LoopDiskOptions): Promise<LoopDisk> {
  const image = path.join(options.dir, 'disk.img')
  const mountPoint = path.join(options.dir, 'mnt')
  const handle = await open(image, 'wx', 0o600)
  try {
    await handle.truncate(options.sizeBytes ?? DEFAULT_DISK_BYTES)
  } finally {
    await handle.close()
  }
  // all inode tables and the journal written now, so no background initialisation writes later
  await runCommand('mkfs.ext4', ['-q', '-F', '-m', '0', '-E', 'lazy_itable_init=0,lazy_journal_init=0', image], { timeoutMs: 120_000 })
  const device = (await runCommand('losetup', ['--find', '--show', image])).stdout.trim()
  let mounted = false
  try {
    await mkdir(mountPoint)
    await runCommand('mount', ['-t', 'ext4', device, mountPoint])
    mounted = true
    const majorMinor = majorMinorOf(device)
    let stopping: Promise<void> | undefined
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        await unmount(mountPoint)
        await detachLoop(device)
        await rm(image, { force: true })
      })())
    return { image, device, majorMinor, mountPoint, stop }
  } catch (err) {
    if (mounted) await unmount(mountPoint)
    await detachLoop(device)
    await rm(image, { force: true })
    throw err
  }
}
