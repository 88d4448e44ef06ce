import { DEFAULT_WORK_DIR, type StorageTarget } from '../../shared/model/plan'
import type { Job } from '../../shared/model/run'
import type { NetworkPath, Scenario } from '../../shared/model/scenario'
import { TOOLS } from '../tools/registry'
import type { PeerFacts, Plan, TargetFacts } from '../tools/types'

/**
 * What a job runs, as pure functions of the plan and the targets: where a run's files go on a
 * target, which address a network client uses to reach its peer, and the tool's plan (its exact
 * steps) for one job. The runner builds the same facts from a live session; the plan review
 * (plans:review) from the inventory alone, before anything is connected.
 */


/** `~` and `~/x` in `home`; other paths with trailing slashes dropped ("/" stays "/"). */
export function expandTilde(p: string, home: string): string {
  if (p === '~') return home
  if (p.startsWith('~/')) return `${home.replace(/\/$/, '')}/${p.slice(2)}`
  return p.replace(/\/+$/, '') || '/'
}

/** The storage root on a target: the plan's work directory (the default one for a raw-device plan), `~` expanded. */
export function workRootOf(storage: StorageTarget, homeDir: string): string {
  return expandTilde(storage.kind === 'directory' ? storage.path : DEFAULT_WORK_DIR, homeDir)
}

/**
 * `<root>/vb-<run id>-<target>`: test files and job folders of one run on one target. The target's
 * name is part of it, so two targets that are one machine (two logins, a loopback test) never
 * share a folder, and one's cleanup cannot remove the other's files.
 */
export function runDirOf(root: string, runId: string, target: string): string {
  const slug = target.toLowerCase().replace(/[^a-z0-9._-]+/g, '_').slice(0, 40) || 'target'
  return `${root}/vb-${runId}-${slug}`
}

/** What picking a peer's address needs to know of it. */
export interface PeerAddressing {
  name: string
  kind: 'ssh' | 'local'
  address?: string
  addresses: { private?: string; public?: string }
}

/**
 * The address a client uses to reach `peer`: by the job's own network path (a matrix job of the
 * plan's `network.paths`), else by the network path of the measured side's scenario.
 */
export function peerAddressOf(peer: PeerAddressing, scenario: Scenario | undefined, jobPath?: NetworkPath): string {
  const path = jobPath ?? scenario?.network
  if (path === 'eip') {
    if (!peer.addresses.public) throw new Error(`${peer.name} has no public (EIP) address: add it to the target, or choose another network path`)
    return peer.addresses.public
  }
  if (path === 'private') {
    if (!peer.addresses.private) throw new Error(`${peer.name} has no private/VPC address: add it to the target, or choose another network path`)
    return peer.addresses.private
  }
  return peer.addresses.private ?? (peer.kind === 'local' ? '127.0.0.1' : (peer.address ?? '127.0.0.1'))
}

/**
 * Every network job's peer address, checked before the run: one sentence per peer and path that
 * has no address for it (peerAddressOf's own words), so a run never starts to fail at its first
 * EIP job. `targets` are the run's machines with their addresses and scenarios.
 */
export function peerAddressProblems(jobs: readonly Pick<Job, 'target' | 'peer' | 'network'>[], targets: readonly (PeerAddressing & { scenario?: Scenario })[]): string[] {
  const find = (name: string) => targets.find((t) => t.name.toLowerCase() === name.toLowerCase())
  const problems = new Set<string>()
  for (const job of jobs) {
    const peer = job.peer !== undefined ? find(job.peer) : undefined
    if (!peer) continue
    try {
      peerAddressOf(peer, find(job.target)?.scenario, job.network)
    } catch (error) {
      problems.add((error as Error).message)
    }
  }
  return [...problems]
}

/** The tool's plan for one job: its parameters checked by the tool's schema, then planned with the facts given. */
export function planOfJob(job: Pick<Job, 'tool' | 'params'>, target: TargetFacts, peer?: PeerFacts): Plan {
  const tool = TOOLS[job.tool]
  return tool.plan(tool.params.parse(job.params), { target, ...(peer ? { peer } : {}) })
}
