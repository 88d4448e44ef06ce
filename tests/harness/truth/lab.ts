/**
 * A baseline and its variants as VirtBench targets whose speed is set: the known-truth lab.
 *
 *   const lab = await startTruthLab([
 *     { name: 'host', role: 'host', cpu: { percentOfOneCpu: 30 } },
 *     { name: 'guest', role: 'guest', cpu: { percentOfOneCpu: 12 } },   // the truth: 40 % of host
 *     { name: 'twin', role: 'guest', cpu: { percentOfOneCpu: 30 } }     // the truth: 100 %
 *   ])
 *   plan: { baseline: { target: 'host' }, variants: [{ target: 'guest' }, { target: 'twin' }],
 *           storage: { kind: 'directory', path: lab.workDir }, network: { peer: lab.peer?.name } }
 *   (network.peer only when a target has a network limit)
 *   services: { inventory: lab.inventory, knownHosts: { appFile: lab.knownHostsFile }, ... }
 *   await lab.stop()
 *
 * - One user key logs in to every target (`keyPath`, as `virtbench run --identity` takes it).
 * - `knownHostsFile` holds every target's host key (and the peer's), so nothing is accepted blind.
 * - Every target sees its own directory at `workDir` (its loop disk when it has a disk limit),
 *   so one plan's storage path gives each target a directory of its own.
 * - With a network limit on any target the lab adds `peer`: a known-truth target without limits
 *   on this machine (root namespace; its cgroup has the highest CPU weight, so the iperf3 server
 *   VirtBench starts there keeps up on a loaded machine: without that weight a starved server's
 *   figures scatter by ±5 %), whose private address `peerAddress` every target's namespace
 *   reaches through that target's own limited veth. Name it as the plan's `network.peer`: each
 *   measured target then sends to it through its own limit. (Without a peer, VirtBench pairs
 *   the baseline with the first variant, and the baseline's path would be the slower of the two.)
 */
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Target, TargetRole } from '../../../src/shared/model/target'
import { removeLeftoversOnce } from './leftovers'
import { startLimitedSshd, stopAll, type LimitedSshdOptions, type LimitedTarget } from './limited-sshd'
import { ownedName } from './owner'

export interface TruthTargetSpec extends Omit<LimitedSshdOptions, 'workDir'> {
  /** The target's role in the inventory (default: the first is the host, the rest guests). */
  role?: TargetRole
}

export interface TruthLab {
  targets: LimitedTarget[]
  /** The target called `name`; throws naming the ones there are. */
  get(name: string): LimitedTarget
  /** The machine network tests talk to (only when a target has a network limit); its inventory name is `peer`. */
  peer?: LimitedTarget
  /** The peer's address as every target reaches it (its inventory private address). */
  peerAddress?: string
  /** Every target (and the peer), as VirtBench's inventory takes them. */
  inventory: Target[]
  /** The plan's storage path: each target sees its own directory here. */
  workDir: string
  /** The user key every target (and the peer) accepts. */
  keyPath: string
  /** known_hosts with every target's host key (and the peer's). */
  knownHostsFile: string
  /** Scratch directory of the lab (holds `workDir` and `knownHostsFile`). */
  dir: string
  stop(): Promise<void>
}

export const PEER_NAME = 'peer'

async function acceptKey(target: LimitedTarget, keyPath: string): Promise<void> {
  await appendFile(path.join(target.server.dir, 'authorized_keys'), await readFile(`${keyPath}.pub`))
}

export async function startTruthLab(specs: TruthTargetSpec[]): Promise<TruthLab> {
  if (specs.length === 0) throw new Error('known-truth lab: give at least one target')
  await removeLeftoversOnce()
  const dir = await mkdtemp(path.join(os.tmpdir(), `${ownedName()}-lab-`))
  const workDir = path.join(dir, 'work')
  await mkdir(workDir)
  const stops: (() => Promise<void>)[] = [() => rm(dir, { recursive: true, force: true })]
  try {
    const started = await Promise.allSettled(specs.map((spec) => startLimitedSshd({ ...spec, workDir })))
    const targets = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    stops.push(...targets.map((t) => t.stop))
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed) throw failed.reason
    const first = targets[0] as LimitedTarget
    const keyPath = first.keyPath
    await Promise.all(targets.slice(1).map((t) => acceptKey(t, keyPath)))

    const peerAddress = targets.find((t) => t.link !== undefined)?.peerAddress
    const peer = peerAddress ? await startLimitedSshd({ name: PEER_NAME, workDir }) : undefined
    if (peer) {
      stops.push(peer.stop)
      await acceptKey(peer, keyPath)
    }

    const inventory = [
      ...targets.map((t, i) => t.target({ role: specs[i]?.role ?? (i === 0 ? 'host' : 'guest'), keyPath })),
      ...(peer ? [peer.target({ role: 'host', keyPath, privateAddress: peerAddress })] : [])
    ]
    const knownHostsFile = path.join(dir, 'known_hosts')
    const hostLines = [...targets, ...(peer ? [peer] : [])].map((t) => t.knownHostsLine)
    await writeFile(knownHostsFile, `${hostLines.join('\n')}\n`, { mode: 0o600 })
    let stopped: Promise<void> | undefined
    return {
      targets,
      get: (name) => {
        const found = targets.find((t) => t.name === name)
        if (!found) throw new Error(`known-truth lab: no target "${name}"; there are ${targets.map((t) => t.name).join(', ')}`)
        return found
      },
      peer,
      peerAddress,
      inventory,
      workDir,
      keyPath,
      knownHostsFile,
      dir,
      stop: () => (stopped ??= stopAll(stops))
    }
  } catch (err) {
    await stopAll(stops).catch(() => undefined)
    throw err
  }
}
