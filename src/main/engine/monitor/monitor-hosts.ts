import type { Finding } from '../../../shared/model/run'
import type { Session } from '../../ssh/types'

/**
 * The physical hosts a run monitors during its guests' storage tests (docs/monitor.md): the host
 * a guest's target names as the one it runs on, whether that host is a target of the run (its
 * session is already open) or only a saved target (a monitoring-only session: no jobs, nothing
 * installed, only the monitor's script). A host that cannot be reached is a warning, never a
 * failure of the run.
 */

/** A machine that runs storage tests in the run, as the engine knows it. */
export interface MonitoredGuest {
  name: string
  role: 'baseline' | 'variant' | 'peer'
  /** The physical host its target names (`virtbench targets add --runs-on`). */
  hostName?: string
}

/** A guest and the host its disks are compared with. */
export interface GuestOnHost {
  guest: string
  host: string
  /** The host is a target of the run (else it gets a monitoring-only session). */
  inRun: boolean
}

/** The codes of the findings about monitored hosts (the engine's own, beside preflight's). */
export const HOST_MONITOR_CODES: readonly string[] = ['host-monitored', 'host-monitor-unreachable', 'host-not-monitored']

/** How long opening a monitoring-only session may take (connecting, the platform probe). */
export const MONITOR_HOST_OPEN_MS = 60_000

/** The guests whose hosts are monitored, and the variants whose target names no host. */
export function hostsToMonitor(guests: readonly MonitoredGuest[], inRun: (name: string) => boolean): { monitored: GuestOnHost[]; unnamed: string[] } {
  const monitored: GuestOnHost[] = []
  const unnamed: string[] = []
  for (const guest of guests) {
    if (guest.hostName && guest.hostName.toLowerCase() !== guest.name.toLowerCase()) {
      monitored.push({ guest: guest.name, host: guest.hostName, inRun: inRun(guest.hostName) })
    } else if (!guest.hostName && guest.role === 'variant') {
      unnamed.push(guest.name)
    }
  }
  return { monitored, unnamed }
}

/**
 * Opens a monitoring-only session to a saved host and checks that it can be read (a POSIX system):
 * the session, or why there is none. Never throws; gives up after `timeoutMs`.
 */
export async function openMonitorHost(
  open: (name: string) => Promise<Session>,
  name: string,
  timeoutMs = MONITOR_HOST_OPEN_MS
): Promise<{ session: Session } | { problem: string }> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)
  })
  try {
    const reach = async (): Promise<Session> => {
      const session = await open(name)
      const facts = await session.facts()
      if (facts.shell !== 'posix') throw new Error(`it runs ${facts.system}, and the monitor reads Linux's /proc/diskstats`)
      return session
    }
    return { session: await Promise.race([reach(), deadline]) }
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) }
  } finally {
    clearTimeout(timer)
  }
}

/** The warning a guest's storage job keeps when its host could not be reached (the reports quote it in place of the ratio). */
export function unreachedHostWarning(host: string, problem: string): string {
  return `host monitor on ${host}: not reached before the jobs (${problem})`
}

/** Preflight's word on each monitored host: which, why, and which could not be reached. */
export function hostMonitorFindings(pairs: { monitored: GuestOnHost[]; unnamed: string[] }, problems: ReadonlyMap<string, string>): Finding[] {
  const findings: Finding[] = pairs.monitored.map(({ guest, host, inRun }): Finding => {
    const problem = problems.get(host.toLowerCase())
    if (problem !== undefined) {
      return {
        severity: 'warning',
        target: host,
        code: 'host-monitor-unreachable',
        message: `${host}, the host ${guest} runs on, could not be reached (${problem}): ${guest}'s storage tests run without the host monitor, so they give no logical-to-physical ratio.`,
        fix: `Check ${host}'s address, login and host key with 'virtbench targets test ${host}' (or on the Targets screen), then run again.`
      }
    }
    const why = inRun
      ? `it is the host ${guest}'s target names, and a target of this run`
      : `it is the host ${guest}'s target names; it is not a target of this run, so VirtBench opened a monitoring-only session to it (it reads /proc/diskstats there: no jobs, nothing installed)`
    return { severity: 'info', target: host, code: 'host-monitored', message: `${host}'s disks are monitored during ${guest}'s storage tests: ${why}.` }
  })
  for (const guest of pairs.unnamed) {
    findings.push({
      severity: 'info',
      target: guest,
      code: 'host-not-monitored',
      message: `${guest}'s target names no host it runs on: only ${guest}'s own disks are monitored during its storage tests, and no logical-to-physical ratio is given.`,
      fix: `If ${guest} is a guest, name the host it runs on (on the Targets screen, or 'virtbench targets add --runs-on HOST') and save that host as a target.`
    })
  }
  return findings
}
