import { isIpv6 } from '../model/target'
import type { Finding, Job, RunDocument, RunDomain, RunTarget } from '../model/run'
import type { ComparisonPlan } from '../model/plan'
import type { Scenario } from '../model/scenario'

/**
 * Redaction for reports and exports that leave the building (docs/export.md): a copy of a run
 * in which no host name, IP address, MAC address, login or target name (often a host alias) of the
 * measured machines is left, while the figures and the document's shape stay as they were, so it
 * is still a valid run and compares to the same numbers.
 */

/** What a redaction replaced, counted; never the originals. */
export interface Redaction {
  /** Machines whose host names were replaced (a name and its short form count once). */
  hostNames: number
  /** Distinct IPv4 and IPv6 addresses. */
  addresses: number
  macs: number
  /** Login names (a target's user, the `user` of `user@host`). */
  users: number
  /** Targets renamed after their role (host A, guest 1...): every target of a measured run. */
  renamedTargets: number
}

export interface RedactedRun {
  run: RunDocument
  redaction: Redaction
}

/** "Host names and addresses are redacted (4 host names, 6 addresses); 2 targets are named by role (host A, guest 1…)", for a report. */
export function describeRedaction(redaction: Redaction): string {
  const count = (n: number, one: string, many: string): string | undefined => (n === 0 ? undefined : `${n} ${n === 1 ? one : many}`)
  const parts = [
    count(redaction.hostNames, 'host name', 'host names'),
    count(redaction.addresses, 'address', 'addresses'),
    count(redaction.macs, 'MAC address', 'MAC addresses'),
    count(redaction.users, 'login', 'logins')
  ].filter((p): p is string => p !== undefined)
  const renamed = redaction.renamedTargets === 0 ? '' : `; ${count(redaction.renamedTargets, 'target is', 'targets are') ?? ''} named by role (host A, guest 1…)`
  return `Host names and addresses are redacted (${parts.length > 0 ? parts.join(', ') : 'none were found'})${renamed}`
}

// ---------------------------------------------------------------------------------------------
// Shapes

/** What redaction writes instead: the same input always gives the same placeholder in one document. */
const PLACEHOLDER = /^<(?:host-\d+|address-\d+|mac|user)>$/
const MAC_PLACEHOLDER = '<mac>'
const USER_PLACEHOLDER = '<user>'

const HEX = '[0-9A-Fa-f]'
/** Six hex pairs joined by `:` or `-`, not part of a longer run of them. */
const MAC = new RegExp(`(?<!${HEX}|${HEX}[:-])${HEX}{2}([:-])${HEX}{2}(?:\\1${HEX}{2}){4}(?!${HEX}|[:-]${HEX})`, 'g')
/** Something with two or more colons made of hex groups (and a dotted IPv4 tail, a %zone): checked with isIpv6. */
const IPV6_CANDIDATE = /(?<![\w:.%])(?:[0-9A-Fa-f]{0,4}:){2,}[0-9A-Fa-f.:]*(?:%[\w.-]+)?/g
/** Four dotted numbers not inside a longer dotted number; each octet is checked to be 0-255. */
const IPV4_CANDIDATE = /(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\d|\.\d)/g

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?'
const HOST_NAME = `${LABEL}(?:\\.${LABEL})*`
/** The login before `@host` (`root@db1`, `admin@10.0.0.3`). */
const USER_AT = /(?<![\w.+\-\\])[A-Za-z0-9_][\w.-]*(?=@[A-Za-z0-9[])/g
/** Where a host name shows by its place in the text, named or not. */
const HOST_AFTER_USER = new RegExp(`(?<![\\w.+\\-\\\\])[A-Za-z0-9_][\\w.-]*@(${HOST_NAME})`, 'g')
const HOST_BEFORE_PORT = new RegExp(`(?<![\\w.-])(${LABEL}(?:\\.${LABEL})*\\.[A-Za-z][A-Za-z0-9-]*)(?=:\\d{1,5}(?!\\d))`, 'g')
const HOST_IN_URL = new RegExp(`(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://(?:[^\\s/@]+@)?(${HOST_NAME})`, 'g')
const HOST_AFTER_KEY = new RegExp(`(?<![A-Za-z0-9_])(?:mon_host|host|hostname|host_name|server|fqdn)=(${HOST_NAME}(?:,${HOST_NAME})*)`, 'gi')

/** Around a known host name: not inside a longer word, nor a later label of a dotted name. */
const HOST_START = '(?<![A-Za-z0-9_]|[A-Za-z0-9]\\.)'
const HOST_END = '(?![A-Za-z0-9_])'

/** Keys of an environment whose string values are the machine's own names. */
/** Keys whose value names a machine: host names, and the machine and boot ids that tell two targets are one machine (replaced alike, so that stays visible). */
const HOST_KEY = /^(?:host|hostname|host_?name|fqdn|node_?name|machine_?id|boot_?id)$/i

function isIpv4Loose(value: string): boolean {
  const parts = value.split('.')
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)
}

/** h:m:s with decimal pairs only (and no `::`) is a time of day, not an address. */
function looksLikeTime(value: string): boolean {
  return !value.includes('::') && value.split(':').every((group) => /^\d{1,2}$/.test(group))
}

/** The IPv6 address at the start of a candidate, with its zone; undefined when there is none. */
function ipv6Of(candidate: string): string | undefined {
  const percent = candidate.indexOf('%')
  const zone = percent < 0 ? '' : candidate.slice(percent)
  let core = percent < 0 ? candidate : candidate.slice(0, percent)
  if (!zone) core = core.replace(/[:.]+$/, (tail) => (tail.startsWith('::') ? '::' : ''))
  if (looksLikeTime(core) || core.split(':').length < 3) return undefined
  return isIpv6(core) ? core + zone : undefined
}

/** A host name worth looking for in text: two characters or more, with a letter. */
function isMatchableHost(name: string): boolean {
  return name.length >= 2 && /[A-Za-z]/.test(name)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function addressKey(address: string): string {
  const percent = address.indexOf('%')
  return (percent < 0 ? address : address.slice(0, percent)).toLowerCase()
}

// ---------------------------------------------------------------------------------------------
// What one run holds

interface Span {
  start: number
  end: number
  kind: 'mac' | 'address' | 'host' | 'user' | 'alias'
  text: string
}

/** The host names, addresses, MACs and logins of one run, each with its placeholder. */
class SecretBook {
  /** Lower-case host name (and short forms) -> placeholder. */
  readonly hosts = new Map<string, string>()
  /** Host names as first written, for findUnredacted. */
  readonly hostSpellings = new Map<string, string>()
  /** Host names seen without a domain. */
  private readonly bareNames = new Set<string>()
  /** Machines (host placeholders) so far. */
  private machines = 0
  /** Lower-case address without zone -> placeholder. */
  readonly addresses = new Map<string, string>()
  readonly addressSpellings = new Map<string, string>()
  readonly macs = new Map<string, string>()
  readonly users = new Set<string>()
  /** Target names and labels that are not host names (aliases): lower case -> pseudonym, and as written. */
  readonly aliases = new Map<string, string>()
  readonly aliasSpellings = new Map<string, string>()
  private hostPattern: RegExp | null | undefined
  private aliasPattern: RegExp | null | undefined

  /** A target address, a networkAddress, an environment host name: an address or a host name. */
  addHostOrAddress(value: string, shortForm: boolean): void {
    const v = value.trim().replace(/^\[(.*)\]$/, '$1')
    if (v === '' || PLACEHOLDER.test(v)) return
    if (isIpv4Loose(v) || isIpv6(v)) {
      this.addAddress(v)
      return
    }
    const name = v.endsWith('.') ? v.slice(0, -1) : v
    if (/^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/.test(name) && /[A-Za-z]/.test(name)) this.addHost(name, shortForm)
  }

  /**
   * One placeholder per machine: `db1.example.com` and its short form `db1` share one, and so do
   * an FQDN and a bare name seen on its own (an environment's `db1`). Two FQDNs that only share
   * their first label (`www.example.com`, `www.example.org`) are two machines.
   */
  addHost(name: string, shortForm: boolean): void {
    const lower = name.toLowerCase()
    const first = lower.split('.')[0] ?? lower
    const dotted = first !== lower
    let placeholder = this.hosts.get(lower) ?? (dotted && this.bareNames.has(first) ? this.hosts.get(first) : undefined)
    if (placeholder === undefined) placeholder = `<host-${++this.machines}>`
    if (!dotted) this.bareNames.add(lower)
    this.remember(lower, name, placeholder)
    if (shortForm && dotted && isMatchableHost(first)) this.remember(first, name.split('.')[0] ?? first, placeholder)
  }

  private remember(lower: string, spelling: string, placeholder: string): void {
    if (this.hosts.has(lower)) return
    this.hosts.set(lower, placeholder)
    this.hostSpellings.set(lower, spelling)
    this.hostPattern = undefined
  }

  addAddress(address: string): string {
    const key = addressKey(address)
    let placeholder = this.addresses.get(key)
    if (placeholder === undefined) {
      placeholder = `<address-${this.addresses.size + 1}>`
      this.addresses.set(key, placeholder)
      this.addressSpellings.set(key, address.split('%')[0] ?? address)
    }
    return placeholder
  }

  addMac(mac: string): void {
    const key = mac.toLowerCase()
    if (!this.macs.has(key)) this.macs.set(key, mac)
  }

  addUser(user: string): void {
    if (user !== '' && !PLACEHOLDER.test(user)) this.users.add(user.toLowerCase())
  }

  /** A target name or label to replace in text, unless it is already a known host name or address. */
  addAlias(spelling: string, replacement: string): void {
    const key = nameKey(spelling)
    if (this.placeholderOf(key) !== undefined || this.aliases.has(key)) return
    this.aliases.set(key, replacement)
    this.aliasSpellings.set(key, spelling.trim())
    this.aliasPattern = undefined
  }

  /** Known aliases in text, as whole words like host names. */
  knownAliases(): RegExp | null {
    if (this.aliasPattern === undefined) this.aliasPattern = wordPattern([...this.aliases.keys()])
    return this.aliasPattern
  }

  get machineCount(): number {
    return this.machines
  }

  /** The placeholder of a whole value that is a known host name or address. */
  placeholderOf(value: string): string | undefined {
    const v = value.trim().replace(/^\[(.*)\]$/, '$1')
    return this.addresses.get(addressKey(v)) ?? this.hosts.get(v.toLowerCase().replace(/\.$/, ''))
  }

  /**
   * Known host names in text: whole words (not part of a longer word such as `db10`, nor a later
   * label of a dotted name such as `fio.read`), case ignored. A hyphen is a boundary: `db1-data`
   * still gives `db1` away, so it becomes `<host-1>-data`.
   */
  knownHosts(): RegExp | null {
    if (this.hostPattern !== undefined) return this.hostPattern
    this.hostPattern = wordPattern([...this.hosts.keys()])
    return this.hostPattern
  }
}

/** Every secret-looking part of `text`, overlapping ones resolved: leftmost first, then longest. */
function spansOf(text: string, book: SecretBook): Span[] {
  const found: Span[] = []
  const add = (start: number, match: string, kind: Span['kind']): void => {
    found.push({ start, end: start + match.length, kind, text: match })
  }
  for (const m of text.matchAll(MAC)) add(m.index, m[0], 'mac')
  for (const m of text.matchAll(IPV6_CANDIDATE)) {
    const address = ipv6Of(m[0])
    if (address !== undefined && !/\w/.test(text[m.index + address.length] ?? '')) add(m.index, address, 'address')
  }
  for (const m of text.matchAll(IPV4_CANDIDATE)) if (isIpv4Loose(m[0])) add(m.index, m[0], 'address')
  for (const m of text.matchAll(USER_AT)) add(m.index, m[0], 'user')
  const hosts = book.knownHosts()
  if (hosts) for (const m of text.matchAll(hosts)) add(m.index, m[0], 'host')
  const aliases = book.knownAliases()
  if (aliases) for (const m of text.matchAll(aliases)) add(m.index, m[0], 'alias')

  found.sort((a, b) => a.start - b.start || b.end - a.end)
  const spans: Span[] = []
  let reached = 0
  for (const span of found) {
    if (span.start < reached) continue
    spans.push(span)
    reached = span.end
  }
  return spans
}

/** Adds what `text` shows of machines to the book: addresses, MACs, logins and host names by their place. */
function discover(text: string, book: SecretBook): void {
  for (const m of text.matchAll(MAC)) book.addMac(m[0])
  for (const m of text.matchAll(IPV6_CANDIDATE)) {
    const address = ipv6Of(m[0])
    if (address !== undefined && !/\w/.test(text[m.index + address.length] ?? '')) book.addAddress(address)
  }
  for (const m of text.matchAll(IPV4_CANDIDATE)) if (isIpv4Loose(m[0])) book.addAddress(m[0])
  for (const m of text.matchAll(USER_AT)) book.addUser(m[0])
  const hostAt = (name: string | undefined): void => {
    if (name === undefined) return
    book.addHostOrAddress(name, name.split('.').length >= 3)
  }
  for (const m of text.matchAll(HOST_AFTER_USER)) hostAt(m[1])
  for (const m of text.matchAll(HOST_BEFORE_PORT)) hostAt(m[1])
  for (const m of text.matchAll(HOST_IN_URL)) hostAt(m[1])
  for (const m of text.matchAll(HOST_AFTER_KEY)) for (const name of (m[1] ?? '').split(',')) hostAt(name)
}

function redactText(text: string, book: SecretBook): string {
  const spans = spansOf(text, book)
  if (spans.length === 0) return text
  let out = ''
  let at = 0
  for (const span of spans) {
    out += text.slice(at, span.start)
    switch (span.kind) {
      case 'mac':
        out += MAC_PLACEHOLDER
        break
      case 'user':
        out += USER_PLACEHOLDER
        break
      case 'address':
        out += book.addAddress(span.text)
        break
      case 'host':
        out += book.hosts.get(span.text.toLowerCase()) ?? '<host>'
        break
      case 'alias':
        out += book.aliases.get(nameKey(span.text)) ?? '<target>'
        break
    }
    at = span.end
  }
  return out + text.slice(at)
}

// ---------------------------------------------------------------------------------------------
// Walking a run document: one walk decides which strings are what, for collecting and replacing

interface Rewrite {
  /** Free text: names, messages, commands, paths, label values. */
  text(value: string): string
  /** A target's name, wherever it is referenced. */
  name(value: string): string
  /** A target's label, or a job's side. */
  label(value: string): string
  /** A sample label's value (may be a target's name). */
  labelValue(value: string): string
  testId(value: string): string
  /** A whole host name or address: a target's address, an environment's hostname. */
  host(value: string): string
  user(value: string): string
  /** A /dev path (plan.storage): no angle brackets allowed. */
  devicePath(value: string): string
  dropPorts: boolean
}

/** Cuts text to a field's maximum length (a placeholder is longer than a short address). */
function fit(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

function rewriteUnknown(value: unknown, r: Rewrite, hostKeys: boolean): unknown {
  if (typeof value === 'string') return r.text(value)
  if (Array.isArray(value)) return value.map((v) => rewriteUnknown(v, r, hostKeys))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, hostKeys && HOST_KEY.test(key) && typeof v === 'string' ? r.host(v) : rewriteUnknown(v, r, hostKeys)])
    )
  }
  return value
}

function rewriteEnvironment(value: unknown, r: Rewrite): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return rewriteUnknown(value, r, true)
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      // guests are keyed by libvirt domain name, which the scenarios' `domain` repeats
      if (key === 'guests' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        return [key, Object.fromEntries(Object.entries(v).map(([domain, g]) => [r.text(domain), rewriteUnknown(g, r, true)]))]
      }
      return [key, HOST_KEY.test(key) && typeof v === 'string' ? r.host(v) : rewriteUnknown(v, r, true)]
    })
  )
}

function rewriteScenario(s: Scenario, r: Rewrite): void {
  if (s.os !== undefined) s.os = fit(r.text(s.os), 80)
  if (s.domain !== undefined) s.domain = fit(r.text(s.domain), 200)
}

function rewriteTarget(t: RunTarget, r: Rewrite): void {
  t.name = r.name(t.name)
  t.label = r.label(t.label)
  if (t.address !== undefined) t.address = r.host(t.address)
  if (t.networkAddress !== undefined) t.networkAddress = r.host(t.networkAddress)
  if (t.user !== undefined) t.user = r.user(t.user)
  if (r.dropPorts) delete t.port
  if (t.scenario) rewriteScenario(t.scenario, r)
}

function rewritePlan(plan: ComparisonPlan, r: Rewrite): void {
  plan.name = fit(r.text(plan.name), 120)
  plan.baseline.target = r.name(plan.baseline.target)
  if (plan.baseline.label !== undefined) plan.baseline.label = r.label(plan.baseline.label)
  for (const v of plan.variants) {
    v.target = r.name(v.target)
    if (v.label !== undefined) v.label = r.label(v.label)
    rewriteScenario(v.scenario, r)
  }
  for (const test of plan.tests) {
    if ('pack' in test) {
      if (test.only) test.only = test.only.map((id) => r.testId(id))
    } else {
      test.id = r.testId(test.id)
      if (test.title !== undefined) test.title = fit(r.text(test.title), 120)
      test.params = rewriteUnknown(test.params, r, false) as Record<string, unknown>
    }
  }
  if (plan.storage.kind === 'directory') {
    plan.storage.path = r.text(plan.storage.path)
  } else {
    plan.storage.path = r.devicePath(plan.storage.path)
    plan.storage.confirm = r.devicePath(plan.storage.confirm)
  }
  if (plan.network.peer !== undefined) plan.network.peer = r.name(plan.network.peer)
  if (plan.sweep) {
    plan.sweep.target = r.name(plan.sweep.target)
    plan.sweep.domain = fit(r.text(plan.sweep.domain), 200)
    rewriteScenario(plan.sweep.scenario, r)
  }
}

function rewriteFinding(f: Finding, r: Rewrite): void {
  if (f.target !== undefined) f.target = r.name(f.target)
  f.message = r.text(f.message)
  if (f.fix !== undefined) f.fix = r.text(f.fix)
  if (f.command !== undefined) f.command = r.text(f.command)
}

function rewriteJob(job: Job, r: Rewrite): void {
  job.testId = r.testId(job.testId)
  job.title = r.text(job.title)
  job.params = rewriteUnknown(job.params, r, false) as Record<string, unknown>
  job.target = r.name(job.target)
  job.side = r.label(job.side)
  if (job.peer !== undefined) job.peer = r.name(job.peer)
  if (job.group !== undefined) job.group = r.text(job.group)
  for (const step of job.steps) {
    step.on = r.name(step.on)
    step.command = r.text(step.command)
    if (step.stdoutFile !== undefined) step.stdoutFile = r.text(step.stdoutFile)
    if (step.stderrFile !== undefined) step.stderrFile = r.text(step.stderrFile)
    if (step.error !== undefined) step.error = r.text(step.error)
  }
  for (const sample of job.samples) {
    sample.labels = Object.fromEntries(Object.entries(sample.labels).map(([key, value]) => [key, r.labelValue(value)]))
  }
  job.warnings = job.warnings.map((w) => r.text(w))
  if (job.error !== undefined) job.error = r.text(job.error)
  for (const m of job.monitor ?? []) {
    m.target = r.name(m.target)
    m.device = r.text(m.device)
  }
  if (job.contamination) {
    for (const w of job.contamination.windows) w.target = r.name(w.target)
    if (job.contamination.disturbed !== undefined) job.contamination.disturbed = r.text(job.contamination.disturbed)
  }
}

/** The libvirt domains a run changed (a setup or a sweep's step): the machines, and the words that may name them. */
function rewriteDomain(d: RunDomain, r: Rewrite): void {
  d.domain = fit(r.text(d.domain), 200)
  d.host = r.name(d.host)
  d.guest = r.name(d.guest)
  if (d.apply) {
    d.apply.changes = d.apply.changes.map((c) => r.text(c))
    if (d.apply.error !== undefined) d.apply.error = r.text(d.apply.error)
    if (d.apply.details !== undefined) d.apply.details = r.text(d.apply.details)
  }
  if (d.restore?.error !== undefined) d.restore.error = r.text(d.restore.error)
}

function rewriteRun(doc: RunDocument, r: Rewrite): void {
  doc.name = r.text(doc.name)
  if (doc.error !== undefined) doc.error = r.text(doc.error)
  if (doc.source) {
    doc.source.title = r.text(doc.source.title)
    doc.source.citation = r.text(doc.source.citation)
    doc.source.note = r.text(doc.source.note)
  }
  rewritePlan(doc.plan, r)
  for (const test of doc.tests) {
    test.id = r.testId(test.id)
    test.title = r.text(test.title)
    test.params = rewriteUnknown(test.params, r, false) as Record<string, unknown>
  }
  for (const target of doc.targets) rewriteTarget(target, r)
  doc.environment = Object.fromEntries(Object.entries(doc.environment).map(([key, value]) => [r.name(key), rewriteEnvironment(value, r) as RunDocument['environment'][string]]))
  for (const finding of doc.preflight) rewriteFinding(finding, r)
  for (const job of doc.jobs) rewriteJob(job, r)
  for (const domain of doc.domains ?? []) rewriteDomain(domain, r)
}

// ---------------------------------------------------------------------------------------------
// Collecting, then replacing

const keep = (v: string): string => v
const identity: Rewrite = {
  text: keep,
  name: keep,
  label: keep,
  labelValue: keep,
  testId: keep,
  host: keep,
  user: keep,
  devicePath: keep,
  dropPorts: false
}

/** A deep copy (structuredClone keeps -0, which a JSON round trip would turn into 0). */
function copyOf(run: RunDocument): RunDocument {
  return structuredClone(run)
}

/** Everything of `run` that names or addresses a machine (works on a copy; `run` is left alone). */
function collect(run: RunDocument): SecretBook {
  const book = new SecretBook()
  const doc = copyOf(run)
  // the targets' own addresses and names first, so <host-1> and <address-1> are the baseline's
  for (const t of doc.targets) {
    if (t.address !== undefined) book.addHostOrAddress(t.address, true)
    if (t.networkAddress !== undefined) book.addHostOrAddress(t.networkAddress, true)
  }
  for (const env of Object.values(doc.environment)) {
    const host = (v: string): string => {
      book.addHostOrAddress(v, true)
      return v
    }
    rewriteEnvironment(env, { ...identity, host })
  }
  const scan = (v: string): string => {
    discover(v, book)
    return v
  }
  rewriteRun(doc, {
    text: scan,
    name: scan,
    label: scan,
    labelValue: scan,
    testId: scan,
    host: (v) => {
      book.addHostOrAddress(v, true)
      return scan(v)
    },
    user: (v) => {
      book.addUser(v)
      return v
    },
    devicePath: scan,
    dropPorts: false
  })
  for (const [spelling, replacement] of targetRenames(run).aliases) book.addAlias(spelling, replacement)
  return book
}

function nameKey(name: string): string {
  return name.trim().toLowerCase()
}

/**
 * A target name that is a plain word of the trade ('host', 'vm') or already a pseudonym ('host A',
 * 'guest 2'): renamed in the fields that name targets, but not searched for in free text, where it
 * is that word ("host cache"). 'vm1' or 'host-02' names one machine and is searched for.
 */
const GENERIC_NAME = /^(?:(?:host|guest|baseline|variant|peer|physical|virtual|vm|local|localhost|server|client|target|this computer)|host [A-Z]{1,2}|guest \d+)$/i

/** Letters for hosts: A..Z, then AA, AB... */
function letters(n: number): string {
  return n < 26 ? String.fromCharCode(65 + n) : letters(Math.floor(n / 26) - 1) + letters(n % 26)
}

/** Target names and labels that name machines, and what they become. */
interface TargetRenames {
  /** nameKey(name) -> pseudonym. */
  names: Map<string, string>
  /** label as written -> new label. */
  labels: Map<string, string>
  /** Names and labels searched for in free text, as written, with what replaces them; never generic words. */
  aliases: Array<[string, string]>
  renamed: number
}

/** A whole-word, case-ignored pattern for a name in text. */
function wordPattern(names: string[]): RegExp | null {
  const sorted = names.filter(isMatchableHost).sort((a, b) => b.length - a.length)
  return sorted.length === 0 ? null : new RegExp(`${HOST_START}(?:${sorted.map(escapeRegExp).join('|')})${HOST_END}`, 'gi')
}

/**
 * Stable pseudonyms by role for every target (target names are often host aliases): the baseline
 * is 'host A', peers 'host B', 'host C'..., variants 'guest 1', 'guest 2'... in the order of the
 * run's targets. A label holding its target's name keeps the rest ('guest (cache=none)' becomes
 * 'guest 1 (cache=none)'); another label becomes the pseudonym and keeps a trailing '(...)'.
 * Published figures (a run with a `source`) name no machines and keep their names.
 */
function targetRenames(run: RunDocument): TargetRenames {
  const names = new Map<string, string>()
  const labels = new Map<string, string>()
  const aliases: Array<[string, string]> = []
  if (run.source) return { names, labels, aliases, renamed: 0 }
  let hosts = 0
  let guests = 0
  let renamed = 0
  for (const t of run.targets) {
    const pseudonym = t.role === 'variant' ? `guest ${++guests}` : `host ${letters(hosts++)}`
    names.set(nameKey(t.name), pseudonym)
    const own = wordPattern([t.name.trim()])
    const holdsName = own !== null && t.label.search(own) >= 0
    const label = holdsName ? t.label.replace(own, pseudonym) : `${pseudonym}${/\s*\([^()]*\)$/.exec(t.label)?.[0] ?? ''}`
    labels.set(t.label, label)
    if (!GENERIC_NAME.test(t.name.trim())) aliases.push([t.name, pseudonym])
    if (!holdsName && !GENERIC_NAME.test(t.label.trim())) aliases.push([t.label, label])
    if (t.name !== pseudonym || t.label !== label) renamed++
  }
  return { names, labels, aliases, renamed }
}

/** Test ids that hold a secret become `redacted-test-<n>` (a test id has no room for a placeholder). */
function testIdMap(run: RunDocument, book: SecretBook): Map<string, string> {
  const ids = new Set<string>([...run.tests.map((t) => t.id), ...run.jobs.map((j) => j.testId)])
  for (const t of run.plan.tests) {
    if ('pack' in t) for (const id of t.only ?? []) ids.add(id)
    else ids.add(t.id)
  }
  const map = new Map<string, string>()
  let n = 0
  for (const id of ids) {
    if (spansOf(id, book).length === 0) continue
    let fresh: string
    do fresh = `redacted-test-${++n}`
    while (ids.has(fresh))
    map.set(id, fresh)
  }
  return map
}

/**
 * A redacted copy of `run` (which is left untouched): host names become `<host-1>`, `<host-2>`...
 * (one per machine; `db1` and `db1.example.com` are the same machine), IPv4 and IPv6 addresses
 * `<address-1>`... (a port, prefix length or zone stays: `<address-1>:5201`, `<address-2>/24`), MAC
 * addresses `<mac>`, logins `<user>`; targets' SSH ports are dropped. Every target gets a pseudonym
 * by its role ('host A', 'guest 1': see targetRenames) everywhere the run names it, free text included
 * (unless the name is a plain word such as 'host'). Metric names, units, tools, ids, codes and dates
 * are not text and are kept. The result is a valid RunDocument that compares to the same figures.
 */
export function redactRun(run: RunDocument): RedactedRun {
  const book = collect(run)
  const { names, labels, renamed } = targetRenames(run)
  const testIds = testIdMap(run, book)
  const text = (v: string): string => redactText(v, book)
  const host = (v: string): string => {
    const whole = book.placeholderOf(v)
    if (whole !== undefined) return whole
    const out = text(v)
    return out === v && v.trim() !== '' && !PLACEHOLDER.test(v.trim()) ? '<host>' : out
  }
  const doc = copyOf(run)
  rewriteRun(doc, {
    text,
    name: (v) => names.get(nameKey(v)) ?? fit(text(v), 64),
    label: (v) => fit(text(labels.get(v) ?? names.get(nameKey(v)) ?? v), 80),
    labelValue: (v) => names.get(nameKey(v)) ?? text(labels.get(v) ?? v),
    testId: (v) => testIds.get(v) ?? v,
    host,
    user: () => USER_PLACEHOLDER,
    devicePath: (v) => text(v).replace(/[<>]/g, ''),
    dropPorts: true
  })
  return {
    run: doc,
    redaction: {
      hostNames: book.machineCount,
      addresses: book.addresses.size,
      macs: book.macs.size,
      users: book.users.size,
      renamedTargets: renamed
    }
  }
}

/**
 * The host names, addresses and MAC addresses of `run` (as `redactRun` finds them) that `text`
 * still holds: empty when a redacted report or export gives nothing away. Host names are matched
 * as whole names, case ignored; addresses as whole addresses (10.0.0.3 is not in 10.0.0.31).
 */
export function findUnredacted(text: string, run: RunDocument): string[] {
  const book = collect(run)
  const left: string[] = []
  const present = (pattern: string): boolean => new RegExp(pattern, 'i').test(text)
  for (const [key, spelling] of book.hostSpellings) {
    if (!isMatchableHost(key)) continue
    if (present(`${HOST_START}${escapeRegExp(key)}${HOST_END}`)) left.push(spelling)
  }
  for (const [key, spelling] of book.addressSpellings) {
    const pattern = isIpv4Loose(key) ? `(?<![\\d.])${escapeRegExp(key)}(?!\\d|\\.\\d)` : `(?<![0-9A-Fa-f:.])${escapeRegExp(key)}(?![0-9A-Fa-f:])`
    if (present(pattern)) left.push(spelling)
  }
  for (const [key, spelling] of book.aliasSpellings) {
    if (present(`${HOST_START}${escapeRegExp(key)}${HOST_END}`)) left.push(spelling)
  }
  for (const [key, spelling] of book.macs) {
    if (present(`(?<![0-9A-Fa-f:-])${escapeRegExp(key)}(?![0-9A-Fa-f]|[:-][0-9A-Fa-f])`)) left.push(spelling)
  }
  return left
}
