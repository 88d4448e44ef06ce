import { spawnSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'

function isBlock(p: string): boolean {
  try {
    return statSync(p).isBlockDevice()
  } catch {
    return false
  }
}

/** A block device mounted on this machine (the one behind / when it is one), for "refuse a mounted device" tests. */
export function mountedBlockDevice(): { device: string; mountPoint: string } {
  const root = spawnSync('findmnt', ['-no', 'SOURCE', '/'], { encoding: 'utf8' }).stdout.trim()
  if (isBlock(root)) return { device: root, mountPoint: '/' }
  for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
    const [source = '', mountPoint = ''] = line.split(' ')
    if (source.startsWith('/dev/') && isBlock(source)) return { device: source, mountPoint: mountPoint.replace(/\\040/g, ' ') }
  }
  throw new Error('no mounted block device on this machine: / is on an overlay and /proc/mounts lists no /dev/ source')
}
