/**
 * Reading a domain on its host (its configuration and whether it runs or persists) and
 * restarting it with deadlines: a clean ACPI shutdown first, `virsh destroy` when the guest
 * does not power off in time, then `virsh start`.
 */
import { quoteSh } from '../../shared/shell-quote'
import { ScenarioError, virsh, virshOrFail, type DomainHost, type VirshResult } from './virsh'

export interface DomainInfo {
  domain: string
  /** `virsh dumpxml --inactive`: the configuration the next boot uses. */
  xml: string
  /** False for a transient domain (`virsh create`): it is defined while VirtBench changes it, and made transient again by the restore. */
  persistent: boolean
  state: string
}

export interface RestartDeadlines {
  /** How long a clean shutdown may take before the domain is destroyed (powered off). */
  shutdownMs: number
  /** How long `virsh domstate` is polled between checks. */
  pollMs: number
}

export const DEFAULT_RESTART: RestartDeadlines = { shutdownMs: 60_000, pollMs: 1000 }

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

export async function domainState(host: DomainHost, domain: string): Promise<string> {
  return (await virshOrFail(host, 'restart', ['domstate', domain], `Check domain ${domain} on ${host.label}.`)).trim()
}

/** Why `virsh dominfo` failed, and what to do, for a person: nothing has changed yet. */
function cannotRead(host: DomainHost, domain: string, info: VirshResult): string {
  if (info.refused === 'no-virsh') {
    return `${host.label} has no virsh, so VirtBench cannot read or change domain ${domain} there: install libvirt-clients on ${host.label} (libvirt-client on Fedora and RHEL), or make the machine that runs the guest its host in the inventory. Nothing was changed.`
  }
  if (info.refused === 'sudo') {
    return `virsh could not run through sudo on ${host.label}, so domain ${domain} was not read or changed: ${info.said}. Or let the login user use libvirt without sudo (the libvirt group) and set the target's sudo to none.`
  }
  if (/failed to get domain|domain not found/i.test(info.said)) {
    return `${host.label} has no libvirt domain named ${domain} (virsh said: ${info.said}): check the domain name (virsh list --all on ${host.label})`
  }
  return `virsh dominfo ${domain} failed on ${host.label}: ${info.said}. Check that virsh runs there for the login user${host.sudo ? ' through sudo' : ' (the libvirt group), or give the target sudo'}.`
}

/** The domain's configuration and state; a clear error when the host has no such domain, no virsh, or sudo refuses it. */
export async function readDomain(host: DomainHost, domain: string): Promise<DomainInfo> {
  const info = await virsh(host, ['dominfo', domain])
  if (!info.ok) throw new ScenarioError('read', cannotRead(host, domain, info))
  const field = (name: string): string => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(info.stdout)?.[1]?.trim() ?? ''
  const xml = await virshOrFail(host, 'read', ['dumpxml', '--inactive', domain], `Check that the login user on ${host.label} may read domain ${domain}.`)
  return { domain, xml, persistent: field('Persistent') === 'yes', state: field('State') }
}

/** Makes `xml` the domain's configuration (`virsh define`); libvirt refusing it changes nothing. */
export async function defineDomain(host: DomainHost, domain: string, xml: string, stage: 'apply' | 'restore'): Promise<void> {
  await virshOrFail(host, stage, ['define', '-'], `libvirt refused the ${stage === 'apply' ? 'new' : 'original'} configuration of ${domain}; the domain keeps the one it had.`, { stdin: xml })
}

/** Stops the domain (clean shutdown within the deadline, else destroy) and starts it with its configuration. */
export async function restartDomain(host: DomainHost, domain: string, deadlines: RestartDeadlines = DEFAULT_RESTART, signal?: AbortSignal): Promise<{ forced: boolean }> {
  let forced = false
  if ((await domainState(host, domain)) !== 'shut off') {
    await virsh(host, ['shutdown', domain])
    const until = Date.now() + deadlines.shutdownMs
    while ((await domainState(host, domain)) !== 'shut off') {
      if (signal?.aborted || Date.now() >= until) {
        forced = true
        const destroyed = await virsh(host, ['destroy', domain])
        if (!destroyed.ok && (await domainState(host, domain)) !== 'shut off') {
          throw new ScenarioError('restart', `${domain} on ${host.label} did not power off within ${Math.round(deadlines.shutdownMs / 1000)} s and virsh destroy failed: ${destroyed.said}`)
        }
        break
      }
      await sleep(deadlines.pollMs)
    }
  }
  await virshOrFail(host, 'restart', ['start', domain], `The domain is defined but did not start: see virsh start ${domain} on ${host.label}.`)
  return { forced }
}

/** The end of the guest's serial console, when the domain logs it to a file on the host. */
export async function serialTail(host: DomainHost, xml: string, lines = 40): Promise<string> {
  const file = /<serial type='file'>\s*<source path='([^']+)'/.exec(xml)?.[1]
  if (!file) return '(the domain has no serial console file)'
  const r = await host.session.exec({ script: `tail -n ${lines} -- ${quoteSh(file)}` }, { capture: { maxBytes: 64 * 1024, keep: 'tail' }, timeoutMs: 15_000, ...(host.sudo ? { sudo: host.sudo } : {}) })
  return r.stdout?.toString('utf8') ?? ''
}
