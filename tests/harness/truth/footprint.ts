/**
 * What a known-truth target leaves on this machine while it runs, and what of it is still there:
 * how the harness's own test proves that stop() and removeLeftovers() leave nothing behind.
 */
import { existsSync } from 'node:fs'
import { runCommand } from './command'
import type { LimitedTarget } from './limited-sshd'
import { mountPoints } from './loop-disk'
import { processAlive } from './owner'

export interface Footprint {
  sshdPid: number
  cgroupDirs: string[]
  namespace?: string
  loopDevice?: string
  mountPoint?: string
  dir: string
}

export function footprintOf(target: LimitedTarget): Footprint {
  return {
    sshdPid: target.server.pid,
    cgroupDirs: target.cgroup.dirs,
    namespace: target.link?.namespace,
    loopDevice: target.disk?.device,
    mountPoint: target.disk?.mountPoint,
    dir: target.dir
  }
}

/** What of `footprint` is still on the machine, one line each (empty when nothing is). */
export async function whatRemains(footprint: Footprint): Promise<string[]> {
  const remains: string[] = []
  if (processAlive(footprint.sshdPid)) remains.push(`sshd process ${footprint.sshdPid}`)
  remains.push(...footprint.cgroupDirs.filter((d) => existsSync(d)).map((d) => `cgroup ${d}`))
  if (footprint.namespace) {
    const { stdout } = await runCommand('ip', ['netns', 'list'])
    if (stdout.split('\n').some((line) => line.split(' ')[0] === footprint.namespace)) remains.push(`network namespace ${footprint.namespace}`)
  }
  if (footprint.loopDevice) {
    const { stdout } = await runCommand('losetup', ['--list', '--noheadings', '--output', 'BACK-FILE', footprint.loopDevice]).catch(() => ({ stdout: '' }))
    if (stdout.includes(footprint.dir)) remains.push(`loop device ${footprint.loopDevice} on ${stdout.trim()}`)
  }
  if (footprint.mountPoint && mountPoints().includes(footprint.mountPoint)) remains.push(`mount ${footprint.mountPoint}`)
  if (existsSync(footprint.dir)) remains.push(`directory ${footprint.dir}`)
  return remains
}
