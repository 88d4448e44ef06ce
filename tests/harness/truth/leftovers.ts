/**
 * Cleaning up after a known-truth run that crashed (a killed test process never calls stop()):
 * everything the harness makes carries `vbtruth-<owner pid>-` in its name (owner.ts), so what
 * belongs to a process that has ended is found by name and removed, in the order that frees it:
 * cgroups (and the processes left in them, which a target started), network namespaces (their
 * veth pairs go with them), mounts, loop devices, temp directories, subnet claims.
 */
import { readdirSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { leftoverCgroupDirs, removeCgroupDirs } from './cgroup'
import { runCommand } from './command'
import { detachLoop, mountPoints, unmount } from './loop-disk'
import { deleteNamespace, leftoverSubnetClaims } from './netns'
import { isLeftover } from './owner'

async function leftoverNamespaces(): Promise<string[]> {
  const { stdout } = await runCommand('ip', ['netns', 'list'])
  return stdout
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name !== '' && isLeftover(name))
}

async function leftoverLoopDevices(): Promise<string[]> {
  const { stdout } = await runCommand('losetup', ['--list', '--json', '--output', 'NAME,BACK-FILE'])
  if (stdout.trim() === '') return []
  const list = JSON.parse(stdout) as { loopdevices?: { name: string; 'back-file'?: string | null }[] }
  return (list.loopdevices ?? []).filter((d) => isLeftover(d['back-file'] ?? '')).map((d) => d.name)
}

function leftoverTempDirs(): string[] {
  const tmp = os.tmpdir()
  try {
    return readdirSync(tmp)
      .filter((name) => isLeftover(name))
      .map((name) => path.join(tmp, name))
  } catch {
    return []
  }
}

/** Removes every leftover of a crashed run; resolves with what it removed, one line each. */
export async function removeLeftovers(): Promise<string[]> {
  const removed: string[] = []
  const cgroups = leftoverCgroupDirs()
  await removeCgroupDirs(cgroups)
  removed.push(...cgroups.map((d) => `cgroup ${d}`))
  for (const name of await leftoverNamespaces()) {
    await deleteNamespace(name)
    removed.push(`network namespace ${name}`)
  }
  // deepest first, so a mount inside another is unmounted before it
  for (const mountPoint of mountPoints().filter(isLeftover).sort((a, b) => b.length - a.length)) {
    await unmount(mountPoint)
    removed.push(`mount ${mountPoint}`)
  }
  for (const device of await leftoverLoopDevices()) {
    await detachLoop(device)
    removed.push(`loop device ${device}`)
  }
  const stillMounted = mountPoints()
  for (const dir of leftoverTempDirs()) {
    // never delete through a mount that would not go: the files would be someone's file system
    if (stillMounted.some((m) => m === dir || m.startsWith(`${dir}/`))) continue
    await rm(dir, { recursive: true, force: true })
    removed.push(`directory ${dir}`)
  }
  for (const claim of leftoverSubnetClaims()) {
    await rm(claim, { force: true })
    removed.push(`subnet claim ${claim}`)
  }
  return removed
}

let once: Promise<string[]> | undefined

/** removeLeftovers(), once per test process (every start of a known-truth target awaits it). */
export function removeLeftoversOnce(): Promise<string[]> {
  once ??= removeLeftovers()
  return once
}
