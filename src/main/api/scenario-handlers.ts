import os from 'node:os'
import type { DomainHostProblem, DomainList } from '../../shared/scenario-contract'
import { sameTargetName, type Target } from '../../shared/model/target'
import { storedSudoOf } from '../engine/start-run'
import { readDomain } from '../scenario/domain-state'
import { editDomain } from '../scenario/domain-edit'
import { ScenarioError, virsh, type DomainHost, type VirshResult } from '../scenario/virsh'
import type { SecretStore } from '../secrets/secrets'
import { knownHostsFiles, type HostKeyQuestion } from '../ssh/host-key'
import { openTargetSession } from '../ssh/target-session'
import { SessionError, type Session } from '../ssh/types'
import { TargetsStore } from '../store/targets-store'
import type { Handlers } from './dispatch'
import { hostKeyQuestionOf, type HostKeyDecisions } from './host-key-decisions'
import { domainToRead, estimateSweep } from './sweep-estimate'

/**
 * The wizard's questions about a guest's libvirt domain (docs/scenarios.md): the domains of its
 * physical host, and what each setup would change (`virsh dumpxml --inactive` and the pure
 * editor; nothing is defined or restarted). Also the time of a sweep (sweep-estimate.ts), its
 * restarts told from the domain's XML when a step may be applied live.
 */

export type ScenarioHandlerNames = 'scenario:listDomains' | 'scenario:diff' | 'scenario:estimate'

export interface ScenarioServices {
  dataDir: string
  secrets: SecretStore
  decisions: HostKeyDecisions
  openLocal: (target: Target) => Session
  homeDir?: string
  notify: (level: 'info' | 'warning' | 'error', message: string) => void
}

/** Every wait on the host has a deadline: listing and reading a domain take seconds. */
const HOST_TIMEOUT_MS = 30_000

class HostProblem extends Error {
  constructor(
    readonly problem: DomainHostProblem,
    message: string,
    readonly host?: string
  ) {
    super(message)
  }
}

type Failure = Extract<DomainList, { ok: false }>

function failure(error: unknown, host: string | undefined): Failure {
  if (error instanceof HostProblem) {
    const named = error.host ?? host
    return { ok: false, problem: error.problem, message: error.message, ...(named ? { host: named } : {}) }
  }
  const where = host ?? 'the physical host'
  if (error instanceof SessionError) {
    if (error.code === 'sudo') return { ok: false, host: where, problem: 'sudo', message: `${error.message}. virsh runs through sudo on ${where}.` }
    return { ok: false, host: where, problem: 'unreachable', message: `${where} could not be reached to ask libvirt: ${error.message}. Test the connection on the Targets screen.` }
  }
  if (error instanceof ScenarioError) return { ok: false, host: where, problem: 'virsh-failed', message: error.message }
  throw error
}

/** What a failed virsh call means for people: no virsh on the host, sudo refused, no such domain, or what virsh said. */
function virshProblem(host: string, r: VirshResult, command: string): HostProblem {
  if (r.refused === 'no-virsh') {
    return new HostProblem('no-virsh', `${host} has no virsh (${command} found no such command): install libvirt-clients there, or choose the guest's real physical host`, host)
  }
  if (r.refused === 'sudo') return new HostProblem('sudo', `${r.said}. virsh runs through sudo on ${host}.`, host)
  if (/failed to get domain|domain not found/i.test(r.said)) {
    return new HostProblem('no-domain', `${host} has no libvirt domain by that name (${command}: ${r.said}): pick the domain from the host's list`, host)
  }
  return new HostProblem('virsh-failed', `${command} failed on ${host}: ${r.said}. Check that the login user may use libvirt there (the libvirt group), or give the target sudo.`, host)
}

export function createScenarioHandlers(svc: ScenarioServices): Pick<Handlers, ScenarioHandlerNames> {
  const targets = new TargetsStore(svc.dataDir, { onProblem: (message) => svc.notify('warning', message) })
  const homeDir = svc.homeDir ?? os.homedir()

  /** The guest's physical host: its host in the inventory, else the baseline (as run-domains' physicalHostOf). */
  const physicalHost = async (guest: string, baseline: string | undefined): Promise<{ host: Target; inventory: Target[] }> => {
    const inventory = await targets.list()
    const target = inventory.find((t) => sameTargetName(t.name, guest))
    if (!target) throw new HostProblem('no-host', `${guest} is not among the targets: add it on the Targets screen`)
    const byId = target.hostId ? inventory.find((t) => t.id === target.hostId) : undefined
    const host = byId ?? (baseline ? inventory.find((t) => sameTargetName(t.name, baseline)) : undefined)
    if (!host || host.id === target.id) {
      throw new HostProblem('no-host', `${guest} has no physical host to ask libvirt: set the guest's host on the Targets screen, or choose its host as the baseline`)
    }
    return { host, inventory }
  }

  /** What `use` answers with the host's session (and sudo), or why the host could not answer; the session is closed after. */
  const askHost = async <T>(guest: string, baseline: string | undefined, use: (host: DomainHost) => Promise<T>): Promise<T | Failure> => {
    let name: string | undefined
    let session: Session | undefined
    try {
      const { host, inventory } = await physicalHost(guest, baseline)
      name = host.name
      const sudo = await storedSudoOf(host, svc.secrets)
      if (sudo === 'missing') throw new HostProblem('sudo', `${host.name} runs virsh through sudo and needs a sudo password, and none is stored: set it on the Targets screen`, host.name)
      const deps = { secrets: svc.secrets, decideHostKey: (q: HostKeyQuestion) => svc.decisions.ask(hostKeyQuestionOf(q)), knownHosts: knownHostsFiles(homeDir, svc.dataDir), openLocal: svc.openLocal }
      session = openTargetSession(host, inventory, deps, undefined, { retryConnect: false })
      return await use({ label: host.name, session, sudo })
    } catch (error) {
      return failure(error, name)
    } finally {
      await session?.close().catch(() => undefined)
    }
  }

  return {
    'scenario:listDomains': ({ guest, baseline }) =>
      askHost(guest, baseline, async (host) => {
        const r = await virsh(host, ['list', '--all', '--name'], { timeoutMs: HOST_TIMEOUT_MS })
        if (!r.ok) throw virshProblem(host.label, r, 'virsh list --all --name')
        return { ok: true as const, host: host.label, domains: r.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '') }
      }),

    'scenario:diff': ({ guest, baseline, domain, setups }) =>
      askHost(guest, baseline, async (host) => {
        // the domain is there and virsh runs: then its configuration (readDomain asks dominfo again, for the state)
        const there = await virsh(host, ['dominfo', domain], { timeoutMs: HOST_TIMEOUT_MS })
        if (!there.ok) throw virshProblem(host.label, there, `virsh dominfo ${domain}`)
        const info = await readDomain(host, domain)
        const diffs = setups.map((setup) => {
          const edit = editDomain(domain, info.xml, setup)
          return edit.ok ? { ok: true as const, diff: edit.diff, changes: edit.changes, restarts: edit.restarts } : edit
        })
        return { ok: true as const, host: host.label, domain, setups: diffs }
      }),

    'scenario:estimate': async ({ plan }) => {
      // the restarts are told from the domain only when a step may be applied live: else every step restarts anyway
      const read = domainToRead(plan)
      if (!read) return estimateSweep(plan)
      const now = await askHost(read.guest, read.baseline, async (host) => {
        const info = await readDomain(host, read.domain)
        return { ok: true as const, xml: info.xml, running: info.state === 'running' }
      })
      return estimateSweep(plan, now.ok ? { domain: read.domain, xml: now.xml, running: now.running } : { note: now.message })
    }
  }
}
