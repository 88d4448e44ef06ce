/**
 * Applying a domain setup on the physical host and putting the domain back (docs/scenarios.md):
 * read (`virsh dumpxml --inactive`), validate and edit (pure, before anything changes), save the
 * original into the run folder, `virsh define`, restart, wait for the guest's SSH, verify inside
 * the guest and in the live XML. The restore defines the saved XML again, restarts the guest,
 * and makes a domain that was transient transient again; it runs at the end of a sweep, after
 * a failure, after a cancel, and from `virtbench run --resume`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { DomainSetup } from '../../shared/model/scenario'
import { quoteSh } from '../../shared/shell-quote'
import type { DomainStageEvent } from '../../shared/sweep/stage-event'
import { writeFileAtomic } from '../fs/atomic-file'
import type { Session } from '../ssh/types'
import { describeChanges, editDomain, editStep, liveDifference, storageSources, type DomainChange, type InForce, type LiveValues } from './domain-edit'
import { DEFAULT_RESTART, defineDomain, domainState, readDomain, restartDomain, serialTail, type RestartDeadlines } from './domain-state'
import { describeFailed, guestChecks, hostChecks, liveDisks, probeGuest, renamedDisks, type Check } from './guest-check'
import { ScenarioError, virsh, virshOrFail, type DomainHost } from './virsh'

/** The guest as VirtBench logs in to it; its next command reconnects after a restart. */
export interface GuestAccess {
  label: string
  session: Session
}

/** A stage of the change as the structured event carries it (the domain, guest and combination are added by the caller). */
export type StageMark = Pick<DomainStageEvent, 'kind' | 'status' | 'detail'>

export interface ApplyOptions {
  /** Where the original XML is kept (`<run folder>/domains`). */
  originalsDir: string
  restart?: RestartDeadlines
  /** How long the guest may take to answer SSH after its restart. */
  bootTimeoutMs?: number
  /** Time between SSH attempts while the guest boots (and between checks while a live change settles). */
  bootPollMs?: number
  /** How long the guest may take to show a change applied live (CPUs onlined, balloon) before it is restarted instead. */
  liveSettleMs?: number
  /** The edit is valid and about to be defined: its diff can be kept (a failure after it still has it). */
  onEdited?: (edit: { changes: DomainChange[]; diff: string; restarts: string[] }) => Promise<void>
  /** What is being done, in words, and as a structured stage (docs/scenarios.md#applying-step-by-step). */
  onStage?: (message: string, stage?: StageMark) => void
  signal?: AbortSignal
}

export interface Applied {
  changes: DomainChange[]
  diff: string
  restarts: string[]
  /** The values set on the running guest when the change was applied live (no restart). */
  live?: LiveValues
  checks: Check[]
  /** Milliseconds: defining and restarting the domain, then waiting for SSH; then verifying. */
  timings: { restartMs: number; bootMs: number; verifyMs: number }
}

/** What is saved before the first change: enough to put the domain back after a crash. */
export interface SavedDomain {
  domain: string
  host: string
  persistent: boolean
  xml: string
}

function safeName(domain: string): string {
  return encodeURIComponent(domain).replace(/\./g, '%2E')
}

/** Saves the original once: a second call for the same domain keeps the first copy (the true original). */
export async function saveOriginal(dir: string, saved: SavedDomain): Promise<void> {
  const file = path.join(dir, `${safeName(saved.domain)}.json`)
  if (existsSync(file)) return
  await writeFileAtomic(originalXmlPath(dir, saved.domain), saved.xml)
  await writeFileAtomic(file, `${JSON.stringify({ domain: saved.domain, host: saved.host, persistent: saved.persistent }, null, 2)}\n`)
}

/** Where the original XML of `domain` is kept. */
export function originalXmlPath(dir: string, domain: string): string {
  return path.join(dir, `${safeName(domain)}.xml`)
}

/** The original XML of `domain` saved in `dir` and not put back yet; undefined when there is none. */
export function savedOriginal(dir: string, domain: string): string | undefined {
  return existsSync(path.join(dir, `${safeName(domain)}.json`)) ? readFileSync(originalXmlPath(dir, domain), 'utf8') : undefined
}

/** Where the XML VirtBench last put in force on `domain` is recorded (not `.json`: it is not an original). */
function inForcePath(dir: string, domain: string): string {
  return path.join(dir, `${safeName(domain)}.in-force`)
}

function readInForce(dir: string, domain: string): InForce | undefined {
  const file = inForcePath(dir, domain)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as InForce) : undefined
}

/** Marks the original as put back: it stays in the folder for the record, and is not restored again. */
export async function markRestored(dir: string, domain: string): Promise<void> {
  await rename(path.join(dir, `${safeName(domain)}.json`), path.join(dir, `${safeName(domain)}.restored`))
  await rm(inForcePath(dir, domain), { force: true })
}

/** The originals saved in a run folder's `domains` directory and not put back yet (none when it has none). */
export function savedOriginals(dir: string): SavedDomain[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const meta = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Omit<SavedDomain, 'xml'>
      return { ...meta, xml: readFileSync(path.join(dir, f.replace(/\.json$/, '.xml')), 'utf8') }
    })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** How waiting for a guest ended: it answered, the deadline passed, or its domain went down (`virsh domstate`). */
export type GuestWait = { up: true } | { up: false; down?: string }

/** States of a domain whose guest cannot answer any more: its qemu is gone. */
const DOWN_STATES = new Set(['shut off', 'crashed'])

/** The domain's state when it is down; undefined while it runs (or virsh cannot tell). */
async function downState(host: DomainHost, domain: string): Promise<string | undefined> {
  const state = await domainState(host, domain).catch(() => undefined)
  return state !== undefined && DOWN_STATES.has(state) ? state : undefined
}

/**
 * Polls the guest with `true` until it answers or the deadline passes; with `host`, a domain that
 * goes down meanwhile (its qemu killed or crashed) ends the wait at once.
 */
export async function waitForGuest(guest: GuestAccess, timeoutMs: number, pollMs = 2000, signal?: AbortSignal, host?: { host: DomainHost; domain: string }): Promise<GuestWait> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until && !signal?.aborted) {
    const left = until - Date.now()
    const ok = await guest.session
      .exec({ script: 'true' }, { timeoutMs: Math.max(1000, Math.min(15_000, left)), ...(signal ? { signal } : {}) })
      .then((r) => r.exitCode === 0)
      .catch(() => false)
    if (ok) return { up: true }
    const down = host && (await downState(host.host, host.domain))
    if (down) return { up: false, down }
    await sleep(Math.min(pollMs, Math.max(0, until - Date.now())))
  }
  return { up: false }
}

/** Why a guest did not come back, for the error: its domain went down, or the deadline. */
function notBack(guest: GuestAccess, domain: string, wait: GuestWait, timeoutMs: number): string {
  return !wait.up && wait.down
    ? `domain ${domain} went down (virsh domstate: ${wait.down}) before ${guest.label} answered SSH`
    : `${guest.label} did not answer SSH within ${Math.round(timeoutMs / 1000)} s`
}

/**
 * The prepared disks a storage swap points the domain at exist on the host (`test -f` of a file,
 * `test -b` of a block device, through its sudo), before anything changes.
 */
export async function checkStorageOnHost(host: DomainHost, domain: string, setups: readonly DomainSetup[]): Promise<void> {
  const seen = new Set<string>()
  const missing: string[] = []
  for (const setup of setups) {
    if (!setup.storage) continue
    for (const { disk, path: file, kind } of storageSources(setup.storage)) {
      const key = `${kind} ${file}`
      if (seen.has(key)) continue
      seen.add(key)
      const r = await host.session.exec({ script: `test ${kind === 'block' ? '-b' : '-f'} ${quoteSh(file)}` }, { timeoutMs: 30_000, ...(host.sudo ? { sudo: host.sudo } : {}) })
      if (r.timedOut) throw new ScenarioError('validate', `${host.label} did not answer within 30 s whether ${file} exists (for ${disk} of domain ${domain}); nothing was changed: check the host and try again`)
      if (r.exitCode !== 0) {
        const make = kind === 'block' ? `create the logical volume (lvcreate -L 10G -n NAME VG)` : setup.storage.backend === 'file-qcow2' ? `create it (qemu-img create -f qcow2 ${file} 10G)` : `create it (qemu-img create -f raw ${file} 10G)`
        missing.push(`${host.label} has no ${kind === 'block' ? 'block device' : 'file'} ${file} for ${disk} (storage ${setup.storage.backend}): ${make}, or correct the path in the plan`)
      }
    }
  }
  if (missing.length > 0) throw new ScenarioError('validate', `${domain} on ${host.label} cannot take the storage asked for, nothing was changed: ${missing.join('; ')}`)
}

/** Validates the setup against the domain without changing anything: the same errors applyDomainSetup gives. */
export async function checkDomainSetup(host: DomainHost, domain: string, setup: DomainSetup): Promise<{ diff: string; changes: DomainChange[]; restarts: string[] }> {
  const info = await readDomain(host, domain)
  const edit = editDomain(domain, info.xml, setup)
  if (!edit.ok) throw new ScenarioError('validate', `${domain} on ${host.label} cannot take this setup, nothing was changed: ${edit.errors.join('; ')}`)
  await checkStorageOnHost(host, domain, [setup])
  return edit
}

/**
 * Validates several setups (a sweep's combinations) against the domain as it is, reading it once,
 * without changing anything: a sweep stops before its first change, not at the combination refused.
 */
export async function checkDomainSetups(host: DomainHost, domain: string, setups: readonly { label: string; setup: DomainSetup }[]): Promise<void> {
  const info = await readDomain(host, domain)
  const refused = setups.flatMap(({ label, setup }) => {
    const edit = editDomain(domain, info.xml, setup)
    return edit.ok ? [] : [`${label}: ${edit.errors.join('; ')}`]
  })
  if (refused.length > 0) {
    throw new ScenarioError('validate', `${domain} on ${host.label} cannot take ${refused.length === 1 ? 'one combination' : `${refused.length} combinations`} of the sweep, nothing was changed: ${refused.join(' | ')}`)
  }
  await checkStorageOnHost(host, domain, setups.map((s) => s.setup))
}

/** Applies `setup` to the domain and verifies it; the original is saved first. Throws ScenarioError. */
export async function applyDomainSetup(host: DomainHost, domain: string, setup: DomainSetup, guest: GuestAccess, opts: ApplyOptions): Promise<Applied> {
  const say = opts.onStage ?? (() => undefined)
  const info = await readDomain(host, domain)
  // every step starts from the original (a sweep's earlier step may have renamed a disk), compared with the domain as it is
  const original = savedOriginal(opts.originalsDir, domain) ?? info.xml
  const edit = editStep(domain, original, info.xml, setup, readInForce(opts.originalsDir, domain))
  if (!edit.ok) throw new ScenarioError('validate', `${domain} on ${host.label} cannot take this setup, nothing was changed: ${edit.errors.join('; ')}`)
  // the setup names disks as the original does; a bus move renames one in the XML checked
  const renamed = renamedDisks(original, edit.xml)
  if (edit.changes.length > 0) await checkStorageOnHost(host, domain, [setup])
  await saveOriginal(opts.originalsDir, { domain, host: host.label, persistent: info.persistent, xml: info.xml })
  await opts.onEdited?.(edit)

  const started = Date.now()
  let live = edit.live && info.state === 'running' ? edit.live : undefined
  if (edit.changes.length > 0) {
    say(`${domain}: ${describeChanges(edit.changes)}`, { kind: 'define', status: 'done', detail: describeChanges(edit.changes) })
    await defineDomain(host, domain, edit.xml, 'apply')
    const defined = await readDomain(host, domain)
    if (live && !(await applyLive(host, domain, live, say))) live = undefined
    if (!live) {
      say(`${domain}: restarting`, { kind: 'restart', status: 'running' })
      await restartDomain(host, domain, opts.restart ?? DEFAULT_RESTART, opts.signal)
    }
    // recorded once the restart is done: a step resumed after a kill then finds its setup in force, with no restart
    await writeFileAtomic(inForcePath(opts.originalsDir, domain), `${JSON.stringify({ xml: edit.xml, defined: defined.xml } satisfies InForce)}\n`)
    say(`${domain}: waiting for ${guest.label} to answer SSH`, { kind: 'ssh', status: live ? 'skipped' : 'running' })
  } else {
    say(`${domain}: has this setup already, no restart`, { kind: 'define', status: 'skipped', detail: 'nothing to change' })
  }
  const restartMs = Date.now() - started
  const bootTimeoutMs = opts.bootTimeoutMs ?? 300_000
  const wait = await waitForGuest(guest, bootTimeoutMs, opts.bootPollMs, opts.signal, { host, domain })
  const bootMs = Date.now() - started - restartMs
  if (!wait.up) {
    const tail = await serialTail(host, info.xml).catch((err: unknown) => `(the serial console could not be read: ${String(err)})`)
    throw new ScenarioError(
      'boot',
      `${notBack(guest, domain, wait, bootTimeoutMs)} after ${domain} was changed on ${host.label} (${describeChanges(edit.changes)}); the original configuration is put back`,
      `XML diff:\n${edit.diff}\n\nserial console (last lines):\n${tail}`
    )
  }
  const verifyStart = Date.now()
  let checks = await verifySetup(host, domain, setup, renamed, guest, live ? (opts.liveSettleMs ?? 60_000) : 0, opts.bootPollMs ?? 2000, opts.signal)
  if (live && checks.some((c) => !c.ok)) {
    // the guest did not take the live change (no CPU onlined, no balloon driver): its next boot does
    say(`${domain}: ${guest.label} did not take the change live (${describeFailed(checks)}); restarting`, { kind: 'restart', status: 'running', detail: 'not taken live' })
    await restartDomain(host, domain, opts.restart ?? DEFAULT_RESTART, opts.signal)
    const again = await waitForGuest(guest, bootTimeoutMs, opts.bootPollMs, opts.signal, { host, domain })
    if (!again.up) throw new ScenarioError('boot', `${notBack(guest, domain, again, bootTimeoutMs)} after ${domain} was restarted on ${host.label}; the original configuration is put back`, `XML diff:\n${edit.diff}`)
    live = undefined
    checks = await verifySetup(host, domain, setup, renamed, guest, 0, 0, opts.signal)
  }
  const verifyMs = Date.now() - verifyStart
  if (checks.some((c) => !c.ok)) throw new ScenarioError('verify', `${domain} did not take the setup: ${describeFailed(checks)}`, `XML diff:\n${edit.diff}`)
  say(`${domain}: verified (${checks.length} checks)`, { kind: 'verify', status: 'done', detail: checks.map((c) => `${c.where} ${c.what} ${c.seen}`).join(', ') })
  return { changes: edit.changes, diff: edit.diff, restarts: edit.restarts, ...(live ? { live } : {}), checks, timings: { restartMs, bootMs, verifyMs } }
}

/** "vCPUs 2, memory 524288 KiB" */
function describeLive(live: LiveValues): string {
  return [live.vcpus !== undefined ? `vCPUs ${live.vcpus}` : '', live.memoryKiB !== undefined ? `memory ${live.memoryKiB} KiB` : ''].filter((p) => p !== '').join(', ')
}

/**
 * Sets the live values on the running domain (`virsh setvcpus --live`, `virsh setmem --live`; its
 * configuration is already defined). False when libvirt refuses one: the caller restarts instead.
 */
async function applyLive(host: DomainHost, domain: string, live: LiveValues, say: (message: string, stage?: StageMark) => void, restore = false): Promise<boolean> {
  const commands: string[][] = []
  if (live.vcpus !== undefined) commands.push(['setvcpus', domain, String(live.vcpus), '--live'])
  if (live.memoryKiB !== undefined) commands.push(['setmem', domain, `${live.memoryKiB}KiB`, '--live'])
  for (const args of commands) {
    const r = await virsh(host, args)
    if (!r.ok) {
      say(`${domain}: virsh ${args.join(' ')} failed (${r.said}); restarting instead`, { kind: restore ? 'restore' : 'restart', status: 'running', detail: `not applied live: ${r.said}` })
      return false
    }
  }
  say(`${domain}: applied live (${describeLive(live)}), no restart`, restore ? { kind: 'restore', status: 'running', detail: `applied live: ${describeLive(live)}, no restart` } : { kind: 'restart', status: 'skipped', detail: `applied live: ${describeLive(live)}` })
  return true
}

/**
 * The checks of the setup on the host (live XML) and in the guest, each disk under its live name
 * (`renamed`: the setup's names that a bus move changed); with `settleMs`, repeated until they
 * pass or that time has passed (a guest onlines hot-added CPUs, and its balloon gives memory
 * back, a moment after the change).
 */
async function verifySetup(
  host: DomainHost,
  domain: string,
  setup: DomainSetup,
  renamed: ReadonlyMap<string, string>,
  guest: GuestAccess,
  settleMs: number,
  pollMs: number,
  signal?: AbortSignal
): Promise<Check[]> {
  const until = Date.now() + settleMs
  for (;;) {
    const live = await virshOrFail(host, 'verify', ['dumpxml', domain], `Check domain ${domain} on ${host.label}.`)
    const checks = [...hostChecks(setup, live, renamed), ...guestChecks(setup, await probeGuest(guest.session), liveDisks(live, renamed))]
    if (checks.every((c) => c.ok) || Date.now() >= until || signal?.aborted) return checks
    await sleep(Math.min(pollMs, Math.max(0, until - Date.now())))
  }
}

/**
 * Puts the domain back as saved: defines the original XML, restarts the domain (or starts it when
 * it is off, as after a kill), waits for the guest, and undefines a domain that was transient.
 * Safe to run twice.
 */
export async function restoreDomain(host: DomainHost, saved: SavedDomain, guest: GuestAccess | undefined, opts: Omit<ApplyOptions, 'originalsDir'> = {}): Promise<void> {
  const say = opts.onStage ?? (() => undefined)
  const now = await readDomain(host, saved.domain).catch((err: unknown) => {
    // a transient domain that went down before VirtBench defined it is gone: define it again
    if (err instanceof ScenarioError && /has no libvirt domain/.test(err.message)) return undefined
    throw err
  })
  // what differs only in live values (vCPUs within the maximum, memory within <memory>) is put back live too
  const live = now && now.state === 'running' && now.persistent === saved.persistent ? liveDifference(now.xml, saved.xml) : undefined
  if (live && now) {
    say(`${saved.domain}: restoring its original configuration, live`, { kind: 'restore', status: 'running', detail: `virsh define of the saved original, then live: ${describeLive(live)}` })
    await defineDomain(host, saved.domain, saved.xml, 'restore')
    if (!(await applyLive(host, saved.domain, live, say, true))) await restartDomain(host, saved.domain, opts.restart ?? DEFAULT_RESTART)
    if (!saved.persistent) await virshOrFail(host, 'restore', ['undefine', saved.domain], `${saved.domain} runs with its original configuration but stays defined.`)
  } else if (!now || now.xml !== saved.xml || now.state !== 'running' || now.persistent !== saved.persistent) {
    say(`${saved.domain}: restoring its original configuration`, { kind: 'restore', status: 'running', detail: 'virsh define of the saved original, restart' })
    await defineDomain(host, saved.domain, saved.xml, 'restore')
    await restartDomain(host, saved.domain, opts.restart ?? DEFAULT_RESTART)
    if (!saved.persistent) await virshOrFail(host, 'restore', ['undefine', saved.domain], `${saved.domain} runs with its original configuration but stays defined.`)
  }
  const wait = guest && (await waitForGuest(guest, opts.bootTimeoutMs ?? 300_000, opts.bootPollMs, undefined, { host, domain: saved.domain }))
  if (guest && wait && !wait.up) {
    throw new ScenarioError(
      'restore',
      `${saved.domain} has its original configuration again, but ${notBack(guest, saved.domain, wait, opts.bootTimeoutMs ?? 300_000)} after the restart`,
      await serialTail(host, saved.xml).catch(() => '')
    )
  }
}
