import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  addressProblem,
  DEFAULT_SSH_PORT,
  SshUserSchema,
  TARGET_NAME_MAX,
  type TargetAuth
} from '../../shared/model/target'
import { countAgentKeys, resolveAgent } from './auth'
import { expandHome } from './home-path'

/**
 * Import of the OpenSSH client configuration (~/.ssh/config) into target candidates.
 *
 * Reading follows ssh_config(5) as OpenSSH 9 implements it: keywords without regard to case,
 * `Key value` and `Key=value`, quoted arguments, `#` comments, `Include` (relative paths under
 * ~/.ssh, globs, at most 16 levels deep), `Host` patterns with `*`, `?` and `!` negation, matched
 * against the alias as typed (case counts). For each field the first value obtained wins, going
 * through the files top to bottom over every block that applies, as `ssh -G <alias>` resolves it.
 * `Match` blocks are not evaluated: their lines are skipped with a warning (`Match all` is
 * understood, since it applies everywhere).
 */

export const MAX_INCLUDE_DEPTH = 16

export interface SshConfigWarning {
  file: string
  line: number
  message: string
}

export function formatWarning(warning: SshConfigWarning): string {
  return `${warning.file}:${warning.line}: ${warning.message}`
}

// ---------------------------------------------------------------------------------------------
// Lexing

export type ConfigLine =
  | { type: 'option'; keyword: string; args: string[]; file: string; line: number }
  | { type: 'host'; patterns: string[]; file: string; line: number }
  | { type: 'match'; all: boolean; file: string; line: number }
  | { type: 'include'; patterns: string[]; file: string; line: number; files: ConfigFile[] }

export interface ConfigFile {
  path: string
  lines: ConfigLine[]
}

/**
 * Splits the arguments of a line the way ssh does: on spaces and tabs, with `"` and `'` quoting,
 * `\` escaping a quote, a backslash or (outside quotes) a space, and `#` at the start of an
 * argument ending the line.
 */
export function splitArguments(text: string): string[] | { error: string } {
  const args: string[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === ' ' || c === '\t') {
      i++
      continue
    }
    if (c === '#') break
    let arg = ''
    let quote = ''
    for (; i < text.length; i++) {
      const ch = text[i] as string
      const next = text[i + 1]
      if (ch === '\\' && next !== undefined && (next === '"' || next === "'" || next === '\\' || (!quote && next === ' '))) {
        arg += next
        i++
      } else if (!quote && (ch === ' ' || ch === '\t')) {
        break
      } else if (!quote && (ch === '"' || ch === "'")) {
        quote = ch
      } else if (quote && ch === quote) {
        quote = ''
      } else {
        arg += ch
      }
    }
    if (quote) return { error: `a ${quote} quote is not closed` }
    args.push(arg)
  }
  return args
}

/** One raw line: the keyword (lower case) and what follows it, or nothing for blanks and comments. */
function splitKeyword(raw: string): { keyword: string; rest: string } | undefined {
  const match = /^[ \t\f]*([^ \t\f=#"][^ \t\f=]*)[ \t\f]*(?:=[ \t\f]*)?(.*?)[ \t\f\r]*$/.exec(raw)
  if (!match || raw.trimStart().startsWith('#')) return undefined
  return { keyword: (match[1] ?? '').toLowerCase(), rest: match[2] ?? '' }
}

/** The lines of one file, without following `Include` (see `loadSshConfig`). */
export function parseSshConfigText(text: string, file: string): { lines: ConfigLine[]; warnings: SshConfigWarning[] } {
  const lines: ConfigLine[] = []
  const warnings: SshConfigWarning[] = []
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1
    const split = splitKeyword(raw)
    if (!split) continue
    const args = splitArguments(split.rest)
    if (!Array.isArray(args)) {
      warnings.push({ file, line, message: `${args.error}; the line is ignored` })
      continue
    }
    if (args.length === 0) {
      warnings.push({ file, line, message: `"${split.keyword}" has no value; the line is ignored` })
      continue
    }
    if (split.keyword === 'host') lines.push({ type: 'host', patterns: args, file, line })
    else if (split.keyword === 'match') {
      const all = args.length === 1 && args[0]?.toLowerCase() === 'all'
      if (!all) {
        warnings.push({
          file,
          line,
          message: `Match blocks are not evaluated by VirtBench; the settings under "Match ${args.join(' ')}" are not imported`
        })
      }
      lines.push({ type: 'match', all, file, line })
    } else if (split.keyword === 'include') lines.push({ type: 'include', patterns: args, file, line, files: [] })
    else lines.push({ type: 'option', keyword: split.keyword, args, file, line })
  }
  return { lines, warnings }
}

// ---------------------------------------------------------------------------------------------
// Loading files and includes

export interface SshConfigPaths {
  /** The user's home directory (for `~`). */
  homeDir: string
  /** Where relative `Include` paths point: `~/.ssh` for the user's configuration. */
  sshDir: string
}

export interface LoadedSshConfig {
  root: ConfigFile
  warnings: SshConfigWarning[]
}

/**
 * Reads `file` and every file it includes. Includes are expanded where they stand, in the sorted
 * order of their glob matches; an include inside a `Match` block is not read (the block is skipped).
 */
export async function loadSshConfig(file: string, paths: SshConfigPaths): Promise<LoadedSshConfig> {
  const warnings: SshConfigWarning[] = []
  const root = await loadFile(file, paths, 0, warnings)
  return { root: root ?? { path: file, lines: [] }, warnings }
}

async function loadFile(
  file: string,
  paths: SshConfigPaths,
  depth: number,
  warnings: SshConfigWarning[]
): Promise<ConfigFile | undefined> {
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    warnings.push({ file, line: 0, message: code === 'ENOENT' ? 'the file does not exist' : `the file cannot be read (${code ?? String(error)})` })
    return undefined
  }
  const parsed = parseSshConfigText(text, file)
  warnings.push(...parsed.warnings)
  let inMatch = false
  for (const line of parsed.lines) {
    if (line.type === 'host') inMatch = false
    if (line.type === 'match') inMatch = !line.all
    if (line.type !== 'include') continue
    if (inMatch) {
      warnings.push({ file, line: line.line, message: 'this Include is inside a Match block, which VirtBench skips; the included files are not read' })
      continue
    }
    if (depth + 1 > MAX_INCLUDE_DEPTH) {
      warnings.push({ file, line: line.line, message: `Include is nested more than ${MAX_INCLUDE_DEPTH} levels deep (does a file include itself?); not followed` })
      continue
    }
    for (const pattern of line.patterns) {
      const absolute = includePath(pattern, paths)
      const matches = await globFiles(absolute)
      if (matches.length === 0) {
        warnings.push({ file, line: line.line, message: `Include ${pattern} matched no files` })
      }
      for (const match of matches) {
        const included = await loadFile(match, paths, depth + 1, warnings)
        if (included) line.files.push(included)
      }
    }
  }
  return { path: file, lines: parsed.lines }
}

function includePath(pattern: string, paths: SshConfigPaths): string {
  const expanded = expandHome(pattern, paths.homeDir)
  return path.isAbsolute(expanded) ? expanded : path.join(paths.sshDir, expanded)
}

/** Files matching an absolute glob (`*`, `?`, `[...]` per path segment), sorted like glob(3). */
export async function globFiles(pattern: string): Promise<string[]> {
  const { root, dir, base } = path.parse(pattern)
  const segments = [...dir.slice(root.length).split(path.sep), base].filter((s) => s !== '')
  let candidates = [root]
  for (const segment of segments) {
    const next: string[] = []
    for (const parent of candidates) {
      if (!/[*?[]/.test(segment)) {
        next.push(path.join(parent, segment))
        continue
      }
      const matcher = segmentMatcher(segment)
      let names: string[]
      try {
        names = await fs.readdir(parent)
      } catch {
        continue
      }
      for (const name of names) if (matcher(name)) next.push(path.join(parent, name))
    }
    candidates = next
  }
  const files: string[] = []
  for (const candidate of candidates) {
    const stat = await fs.stat(candidate).catch(() => undefined)
    if (stat?.isFile()) files.push(candidate)
  }
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

function segmentMatcher(segment: string): (name: string) => boolean {
  let source = ''
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string
    if (c === '*') source += '.*'
    else if (c === '?') source += '.'
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2)
      if (close === -1) source += '\\['
      else {
        let body = segment.slice(i + 1, close)
        const negate = body.startsWith('!')
        if (negate) body = body.slice(1)
        source += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`
        i = close
      }
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&')
  }
  const regex = new RegExp(`^${source}$`, 's')
  // Like glob(3) without GLOB_PERIOD: a wildcard does not match a leading dot.
  return (name) => regex.test(name) && (!name.startsWith('.') || segment.startsWith('.'))
}

// ---------------------------------------------------------------------------------------------
// Host patterns

/** ssh's wildcard match: `*` any run of characters, `?` one character; case counts. */
export function matchesPattern(text: string, pattern: string): boolean {
  let t = 0
  let p = 0
  let starP = -1
  let starT = 0
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      t++
      p++
    } else if (p < pattern.length && pattern[p] === '*') {
      starP = p++
      starT = t
    } else if (starP !== -1) {
      p = starP + 1
      t = ++starT
    } else {
      return false
    }
  }
  while (pattern[p] === '*') p++
  return p === pattern.length
}

/** Whether a `Host` line applies to `alias`: some pattern matches and no negated one does. */
export function hostLineMatches(alias: string, patterns: readonly string[]): boolean {
  let matched = false
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!')
    if (!matchesPattern(alias, negated ? pattern.slice(1) : pattern)) continue
    if (negated) return false
    matched = true
  }
  return matched
}

function isConcreteAlias(pattern: string): boolean {
  return !pattern.startsWith('!') && !/[*?]/.test(pattern)
}

// ---------------------------------------------------------------------------------------------
// Resolution

/** A value together with where it came from. */
export interface Located<T> {
  value: T
  file: string
  line: number
}

/** The fields VirtBench uses, as ssh resolves them for one alias (before defaults and tokens). */
export interface ResolvedOptions {
  hostName?: Located<string>
  user?: Located<string>
  port?: Located<number>
  /** Every IdentityFile that applies, in order, exactly as written. */
  identityFiles: Located<string>[]
  /** ProxyJump as written (`none` included), when it was the first of ProxyJump/ProxyCommand. */
  proxyJump?: Located<string>
  proxyCommand?: Located<string>
  /** IdentitiesOnly yes: ssh offers only the identity files, not the agent's other keys. */
  identitiesOnly?: Located<boolean>
  /** IdentityAgent as written (`none` turns the agent off; `SSH_AUTH_SOCK` is the default). */
  identityAgent?: Located<string>
  warnings: SshConfigWarning[]
}

/**
 * Applies the configuration to `alias` the way ssh does: each file starts active, `Host` lines
 * switch blocks on and off, an include runs with the including block's state and restores it
 * afterwards, and the first value obtained for a field wins.
 */
export function resolveOptions(root: ConfigFile, alias: string): ResolvedOptions {
  const resolved: ResolvedOptions = { identityFiles: [], warnings: [] }
  walk(root, alias, false, resolved)
  return resolved
}

function walk(file: ConfigFile, alias: string, neverMatch: boolean, out: ResolvedOptions): void {
  let active = !neverMatch
  for (const line of file.lines) {
    if (line.type === 'host') active = !neverMatch && hostLineMatches(alias, line.patterns)
    else if (line.type === 'match') active = !neverMatch && line.all
    else if (line.type === 'include') {
      const outer = active
      for (const included of line.files) walk(included, alias, neverMatch || !outer, out)
      active = outer
    } else if (active) applyOption(line, out)
  }
}

function applyOption(line: Extract<ConfigLine, { type: 'option' }>, out: ResolvedOptions): void {
  const at = { file: line.file, line: line.line }
  const first = line.args[0] as string
  switch (line.keyword) {
    case 'hostname':
      out.hostName ??= { value: first, ...at }
      break
    case 'user':
      out.user ??= { value: first, ...at }
      break
    case 'port': {
      if (out.port) break
      const port = parsePort(first)
      if (port === undefined) out.warnings.push({ ...at, message: `Port ${JSON.stringify(first)} is not a port number (1 to 65535); ignored` })
      else out.port = { value: port, ...at }
      break
    }
    case 'identityfile':
      out.identityFiles.push({ value: first, ...at })
      break
    case 'proxyjump':
      // ssh takes a ProxyJump only while neither ProxyJump nor ProxyCommand has been set.
      if (out.proxyJump || out.proxyCommand) break
      out.proxyJump = { value: first, ...at }
      if (line.args.length > 1) out.warnings.push({ ...at, message: `ProxyJump takes one value (hops separated by commas, no spaces); "${line.args.slice(1).join(' ')}" is ignored` })
      break
    case 'identitiesonly':
      out.identitiesOnly ??= { value: first.toLowerCase() === 'yes', ...at }
      break
    case 'identityagent':
      out.identityAgent ??= { value: first, ...at }
      break
    case 'proxycommand':
      if (out.proxyCommand || (out.proxyJump && out.proxyJump.value.toLowerCase() !== 'none')) break
      out.proxyCommand = { value: line.args.join(' '), ...at }
      break
  }
}

/** Ports as ssh reads them: a number, or the service name `ssh`. */
function parsePort(text: string): number | undefined {
  if (text === 'ssh') return DEFAULT_SSH_PORT
  if (!/^[0-9]{1,5}$/.test(text)) return undefined
  const port = Number(text)
  return port >= 1 && port <= 65535 ? port : undefined
}

/** One hop of a ProxyJump chain. */
export interface JumpHop {
  host: string
  user?: string
  port?: number
  /** The hop as written. */
  text: string
}

/**
 * Parses a ProxyJump value: comma-separated hops, each `[user@]host[:port]` (IPv6 in brackets) or
 * `ssh://[user@]host[:port]`, nearest to this computer first. `none` is an empty chain.
 */
export function parseProxyJump(value: string): JumpHop[] | { error: string } {
  if (value.trim().toLowerCase() === 'none') return []
  const hops: JumpHop[] = []
  for (const text of value.split(',')) {
    const hop = parseJumpHop(text.trim())
    if (!hop) return { error: `${JSON.stringify(text.trim())} is not [user@]host[:port]` }
    hops.push(hop)
  }
  return hops
}

function parseJumpHop(text: string): JumpHop | undefined {
  const body = text.startsWith('ssh://') ? text.slice('ssh://'.length).replace(/\/$/, '') : text
  const at = body.lastIndexOf('@')
  const user = at === -1 ? undefined : body.slice(0, at)
  const hostPort = at === -1 ? body : body.slice(at + 1)
  let host: string
  let portText: string | undefined
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']')
    if (close === -1) return undefined
    host = hostPort.slice(1, close)
    const after = hostPort.slice(close + 1)
    if (after !== '' && !after.startsWith(':')) return undefined
    portText = after === '' ? undefined : after.slice(1)
  } else {
    const colon = hostPort.indexOf(':')
    host = colon === -1 ? hostPort : hostPort.slice(0, colon)
    portText = colon === -1 ? undefined : hostPort.slice(colon + 1)
  }
  if (host === '' || user === '' || /[\s/@]/.test(host)) return undefined
  const port = portText === undefined ? undefined : parsePort(portText)
  if (portText !== undefined && port === undefined) return undefined
  return { host, text, ...(user !== undefined && { user }), ...(port !== undefined && { port }) }
}

// ---------------------------------------------------------------------------------------------
// Tokens

export interface LocalIdentity {
  homeDir: string
  /** The local user name, the default remote user too (`%u`). */
  localUser: string
  /** For `${NAME}` in IdentityFile. */
  env: Readonly<Record<string, string | undefined>>
}

/** HostName accepts `%h` (the alias) and `%%`; ssh then lower-cases the result. */
export function expandHostName(value: string, alias: string): string | { error: string } {
  const expanded = expandPercent(value, { h: alias })
  return typeof expanded === 'string' ? expanded.toLowerCase() : expanded
}

/**
 * IdentityFile: `~` first, then `%d` (home), `%u` (local user), `%h` (remote host name), `%r`
 * (remote user), `%p` (port), `%n` (alias), `%%`, and `${NAME}` from the environment.
 */
export function expandIdentityFile(
  value: string,
  context: { alias: string; hostName: string; user: string; port: number },
  local: LocalIdentity
): string | { error: string } {
  let text = value
  if (text === '~' || text.startsWith('~/')) text = local.homeDir + text.slice(1)
  else if (text.startsWith('~')) {
    const owner = text.slice(1).split('/')[0] ?? ''
    if (owner !== local.localUser) return { error: `"~${owner}" points into another user's home directory, which VirtBench does not look up` }
    text = local.homeDir + text.slice(1 + owner.length)
  }
  const tokens = { d: local.homeDir, u: local.localUser, h: context.hostName, r: context.user, p: String(context.port), n: context.alias }
  const expanded = expandPercent(text, tokens)
  if (typeof expanded !== 'string') return expanded
  return expandEnvironment(expanded, local.env)
}

function expandPercent(value: string, tokens: Readonly<Record<string, string>>): string | { error: string } {
  let out = ''
  for (let i = 0; i < value.length; i++) {
    const c = value[i]
    if (c !== '%') {
      out += c
      continue
    }
    const token = value[i + 1]
    if (token === '%') out += '%'
    else if (token !== undefined && token in tokens) out += tokens[token]
    else return { error: `the token "%${token ?? ''}" is not supported here` }
    i++
  }
  return out
}

function expandEnvironment(value: string, env: LocalIdentity['env']): string | { error: string } {
  let error: string | undefined
  const expanded = value.replace(/\$\{([^}]*)\}/g, (_whole, name: string) => {
    const found = env[name]
    if (found === undefined) error ??= `the environment variable ${name} is not set`
    return found ?? ''
  })
  return error ? { error } : expanded
}

// ---------------------------------------------------------------------------------------------
// Import

/** A target ready to be created from the SSH configuration (its role is for the user to pick). */
export interface SshConfigCandidate {
  /** The Host alias, used as the target name. */
  name: string
  address: string
  port: number
  user: string
  auth: TargetAuth
  /**
   * Jump hosts to reach this target, nearest to this computer first, by name: link the last one
   * as the target's jump host. Each name is another candidate or an existing target.
   */
  jumpChain: string[]
  /** The `Host` line the alias comes from (or the line of the ProxyJump that named it). */
  source: { file: string; line: number }
  /** Set when this candidate was made for a jump host that has no Host block of its own. */
  jumpHostFor?: string
}

export interface SshConfigImport {
  candidates: SshConfigCandidate[]
  warnings: SshConfigWarning[]
}

export interface ImportOptions {
  /** Default: ~/.ssh/config. */
  file?: string
  homeDir?: string
  sshDir?: string
  localUser?: string
  env?: Readonly<Record<string, string | undefined>>
  /** Names of saved targets: jump hosts with these names link to them rather than to new candidates. */
  existingNames?: readonly string[]
}

/** Reads the user's SSH configuration and turns each concrete Host alias into a candidate. */
export async function importSshConfig(options: ImportOptions = {}): Promise<SshConfigImport> {
  const homeDir = options.homeDir ?? os.homedir()
  const sshDir = options.sshDir ?? path.join(homeDir, '.ssh')
  const file = options.file ?? path.join(sshDir, 'config')
  const loaded = await loadSshConfig(file, { homeDir, sshDir })
  const local: LocalIdentity = {
    homeDir,
    localUser: options.localUser ?? os.userInfo().username,
    env: options.env ?? process.env
  }
  const result = candidatesFromConfig(loaded.root, local, options.existingNames ?? [])
  let agentKeys: Promise<number> | undefined
  for (const candidate of result.candidates) {
    if (candidate.auth.method === 'agent') {
      agentKeys ??= agentKeyCount(local.env)
      await useDefaultIdentity(candidate, resolveOptions(loaded.root, candidate.name), { sshDir, agentKeys: await agentKeys }, result.warnings)
    }
    if (candidate.auth.method !== 'key') continue
    const encrypted = await keyHasPassphrase(candidate.auth.keyPath)
    if (encrypted === undefined) {
      result.warnings.push({ ...candidate.source, message: `${candidate.name}: the key file ${candidate.auth.keyPath} cannot be read as a private key; check the path before connecting` })
    }
    candidate.auth = { ...candidate.auth, hasPassphrase: encrypted ?? false }
  }
  return { candidates: result.candidates, warnings: [...loaded.warnings, ...result.warnings] }
}

/**
 * The identity files ssh tries when a host names none (ssh_config(5), IdentityFile), in its order.
 * Security-key (`_sk`) and XMSS keys are left out: VirtBench cannot sign with them.
 */
export const DEFAULT_IDENTITY_FILES = ['id_rsa', 'id_ecdsa', 'id_ed25519', 'id_dsa'] as const

/** How many keys the agent in SSH_AUTH_SOCK holds; 0 when there is none or it does not answer. */
async function agentKeyCount(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const location = resolveAgent(undefined, { platform: process.platform, sshAuthSock: env.SSH_AUTH_SOCK })
  if (!location.ok) return 0
  return countAgentKeys(location.path).catch(() => 0)
}

/**
 * A host without IdentityFile logs in as ssh would: with the agent's keys when an agent holds some
 * (and neither IdentitiesOnly nor IdentityAgent none keeps them out), otherwise with the first
 * default identity file that is a private key. Without either, it stays on the agent and says so.
 */
async function useDefaultIdentity(
  candidate: SshConfigCandidate,
  options: ResolvedOptions,
  context: { sshDir: string; agentKeys: number },
  warnings: SshConfigWarning[]
): Promise<void> {
  const identitiesOnly = options.identitiesOnly?.value === true
  const agentOff = options.identityAgent?.value.toLowerCase() === 'none'
  if (context.agentKeys > 0 && !identitiesOnly && !agentOff) return
  const found: string[] = []
  for (const name of DEFAULT_IDENTITY_FILES) {
    const file = path.join(context.sshDir, name)
    if ((await keyHasPassphrase(file)) !== undefined) found.push(file)
  }
  const first = found[0]
  const why = identitiesOnly ? 'IdentitiesOnly is set' : agentOff ? 'IdentityAgent is none' : 'no SSH agent with keys is running'
  if (first === undefined) {
    warnings.push({
      ...candidate.source,
      message: `${candidate.name}: no IdentityFile, ${why}, and none of ${DEFAULT_IDENTITY_FILES.map((f) => `~/.ssh/${f}`).join(', ')} is a private key; imported to log in with the SSH agent (start one with your key, or choose a key file or password for it)`
    })
    return
  }
  candidate.auth = { method: 'key', keyPath: first, hasPassphrase: false }
  if (found.length > 1) {
    warnings.push({
      ...candidate.source,
      message: `${candidate.name}: no IdentityFile and ${why}: ssh would try ${found.map((f) => path.basename(f)).join(', ')} in turn; VirtBench uses the first, ${first}`
    })
  }
}

/** The concrete aliases of all Host lines, first occurrence first, with where they appear. */
export function listAliases(root: ConfigFile): { alias: string; file: string; line: number }[] {
  const seen = new Map<string, { alias: string; file: string; line: number }>()
  const visit = (file: ConfigFile): void => {
    for (const line of file.lines) {
      if (line.type === 'include') line.files.forEach(visit)
      if (line.type !== 'host') continue
      for (const pattern of line.patterns) {
        if (isConcreteAlias(pattern) && !seen.has(pattern)) seen.set(pattern, { alias: pattern, file: line.file, line: line.line })
      }
    }
  }
  visit(root)
  return [...seen.values()]
}

/** What ssh would use for `alias`, with the defaults ssh applies (port 22, the local user). */
export interface ResolvedHost {
  alias: string
  /** After `%h` and lower-casing, as `ssh -G` prints it. */
  hostName: string
  user: string
  port: number
  /** The first IdentityFile as written (ssh -G prints it so), and expanded to a path. */
  identityFile?: { raw: string; path: string }
  /** ProxyJump as written, unless it is absent or `none`, and where it was written. */
  proxyJump?: string
  proxyJumpAt?: { file: string; line: number }
  jumpHops: JumpHop[]
  warnings: SshConfigWarning[]
  /** Why the alias cannot become a target, when it cannot. */
  unusable?: string
}

/**
 * Resolves `alias` as `ssh -G` does. `given` are a user and port given outside the configuration
 * (`ssh -l user -p port`, or `user@host:port` in a ProxyJump), which take precedence over it.
 */
export function resolveHost(
  root: ConfigFile,
  alias: string,
  local: LocalIdentity,
  where: { file: string; line: number },
  given: { user?: string; port?: number } = {}
): ResolvedHost {
  const options = resolveOptions(root, alias)
  const warnings = [...options.warnings]
  const hostNameRaw = options.hostName?.value ?? alias
  const hostName = expandHostName(hostNameRaw, alias)
  const user = given.user ?? options.user?.value ?? local.localUser
  const port = given.port ?? options.port?.value ?? DEFAULT_SSH_PORT
  const resolved: ResolvedHost = {
    alias,
    hostName: typeof hostName === 'string' ? hostName : hostNameRaw,
    user,
    port,
    jumpHops: [],
    warnings
  }
  if (typeof hostName !== 'string') {
    const at = options.hostName ?? where
    resolved.unusable = `HostName ${JSON.stringify(hostNameRaw)}: ${hostName.error}`
    warnings.push({ file: at.file, line: at.line, message: `${alias}: ${resolved.unusable}; not imported` })
  }
  const identity = options.identityFiles[0]
  if (identity) {
    const expanded = expandIdentityFile(identity.value, { alias, hostName: resolved.hostName, user, port }, local)
    if (typeof expanded === 'string') {
      resolved.identityFile = { raw: identity.value, path: expanded }
      if (!path.isAbsolute(expanded)) {
        warnings.push({ file: identity.file, line: identity.line, message: `${alias}: IdentityFile ${JSON.stringify(expanded)} is a relative path; ssh reads it relative to the directory it is started in` })
      }
    } else {
      warnings.push({ file: identity.file, line: identity.line, message: `${alias}: IdentityFile ${JSON.stringify(identity.value)}: ${expanded.error}; the ssh agent is used instead` })
    }
    if (options.identityFiles.length > 1) {
      const extra = options.identityFiles[1] as Located<string>
      warnings.push({ file: extra.file, line: extra.line, message: `${alias}: only the first IdentityFile (${identity.value}) is imported` })
    }
  }
  if (options.proxyJump && options.proxyJump.value.toLowerCase() !== 'none') {
    resolved.proxyJump = options.proxyJump.value
    resolved.proxyJumpAt = { file: options.proxyJump.file, line: options.proxyJump.line }
    const hops = parseProxyJump(options.proxyJump.value)
    if (Array.isArray(hops)) resolved.jumpHops = hops
    else {
      warnings.push({ file: options.proxyJump.file, line: options.proxyJump.line, message: `${alias}: ProxyJump ${hops.error}; imported without a jump host` })
    }
  } else if (options.proxyCommand && options.proxyCommand.value.toLowerCase() !== 'none') {
    warnings.push({
      file: options.proxyCommand.file,
      line: options.proxyCommand.line,
      message: `${alias}: ProxyCommand cannot be followed by VirtBench; imported as a direct connection (set a jump host by hand if one is needed)`
    })
  }
  return resolved
}

/** Builds candidates for every concrete alias, plus those needed for jump hosts without a Host block. */
export function candidatesFromConfig(
  root: ConfigFile,
  local: LocalIdentity,
  existingNames: readonly string[]
): SshConfigImport {
  const warnings: SshConfigWarning[] = []
  const candidates: SshConfigCandidate[] = []
  const byName = new Map<string, SshConfigCandidate>()
  const existing = new Set(existingNames.map(foldName))
  const pending: { resolved: ResolvedHost; source: { file: string; line: number }; jumpHostFor?: string; chainOverride?: JumpHop[] }[] = []

  for (const { alias, file, line } of listAliases(root)) {
    pending.push({ resolved: resolveHost(root, alias, local, { file, line }), source: { file, line } })
  }
  while (pending.length > 0) {
    const { resolved, source, jumpHostFor, chainOverride } = pending.shift() as (typeof pending)[number]
    warnings.push(...resolved.warnings)
    const name = resolved.alias
    if (byName.has(foldName(name))) {
      if (!jumpHostFor) warnings.push({ ...source, message: `"${name}" differs only in case from another alias; names must be unique, so it is not imported` })
      continue
    }
    const candidate = toCandidate(resolved, source, warnings)
    if (!candidate) continue
    if (jumpHostFor) candidate.jumpHostFor = jumpHostFor
    const hops = chainOverride ?? resolved.jumpHops
    const jumpSource = resolved.proxyJumpAt ?? source
    if (hops.some((hop) => hop.host === name)) {
      warnings.push({ ...jumpSource, message: `${name}: its ProxyJump goes through itself (${resolved.proxyJump}); imported without a jump host` })
    } else {
      candidate.jumpChain = hops.map((hop) => hop.host)
      hops.forEach((hop, index) => {
        const waiting = pending.find((p) => p.resolved.alias === hop.host)?.resolved
        const linked = byName.get(foldName(hop.host)) ?? waiting
        if (linked || existing.has(foldName(hop.host))) {
          const differs = (hop.user !== undefined && hop.user !== linked?.user) || (hop.port !== undefined && hop.port !== linked?.port)
          if (differs) {
            const what = linked ? `logs in as ${linked.user} on port ${linked.port}` : 'is a saved target; check its user and port'
            warnings.push({ ...jumpSource, message: `${name}: the jump host "${hop.text}" is linked to the target "${hop.host}", which ${what}` })
          }
          return
        }
        // A jump host without a Host block: ssh resolves it through the configuration like any host.
        const hopResolved = resolveHost(root, hop.host, local, jumpSource, {
          ...(hop.user !== undefined && { user: hop.user }),
          ...(hop.port !== undefined && { port: hop.port })
        })
        // ssh reaches the first hop with that hop's own settings, later hops through the hops before them.
        pending.push({ resolved: hopResolved, source: jumpSource, jumpHostFor: name, ...(index > 0 && { chainOverride: hops.slice(0, index) }) })
      })
      warnChainDisagreement(name, hops, pending, byName, jumpSource, warnings)
    }
    byName.set(foldName(name), candidate)
    candidates.push(candidate)
  }
  dropMissingJumps(candidates, existing, warnings)
  breakJumpLoops(candidates, warnings)
  return { candidates, warnings }
}

/** A jump host that could not be imported leaves its users without one, and says so. */
function dropMissingJumps(candidates: SshConfigCandidate[], existing: ReadonlySet<string>, warnings: SshConfigWarning[]): void {
  const names = new Set(candidates.map((c) => foldName(c.name)))
  for (const candidate of candidates) {
    const jump = candidate.jumpChain.at(-1)
    if (jump === undefined || names.has(foldName(jump)) || existing.has(foldName(jump))) continue
    warnings.push({
      ...candidate.source,
      message: `${candidate.name}: its jump host "${jump}" is not imported (see the warning about it); ${candidate.name} is imported without a jump host`
    })
    candidate.jumpChain = []
  }
}

/** Jump hosts that lead back to where they started would never connect: drop the link that closes each loop. */
function breakJumpLoops(candidates: SshConfigCandidate[], warnings: SshConfigWarning[]): void {
  const byName = new Map(candidates.map((c) => [foldName(c.name), c]))
  for (const start of candidates) {
    const path: SshConfigCandidate[] = []
    let current: SshConfigCandidate | undefined = start
    while (current && !path.includes(current)) {
      path.push(current)
      const jump = current.jumpChain.at(-1)
      current = jump === undefined ? undefined : byName.get(foldName(jump))
    }
    if (!current) continue
    const last = path.at(-1) as SshConfigCandidate
    const loop = [...path.slice(path.indexOf(current)), current].map((c) => c.name).join(' → ')
    warnings.push({ ...last.source, message: `${last.name}: the jump hosts form a loop (${loop}); ${last.name} is imported without a jump host` })
    last.jumpChain = []
  }
}

function foldName(name: string): string {
  return name.trim().toLocaleLowerCase('en-US')
}

function toCandidate(resolved: ResolvedHost, source: { file: string; line: number }, warnings: SshConfigWarning[]): SshConfigCandidate | undefined {
  const { alias } = resolved
  const skip = (why: string): undefined => {
    warnings.push({ ...source, message: `${alias}: ${why}; not imported` })
    return undefined
  }
  if (resolved.unusable) return undefined
  if (alias.trim() !== alias || alias.length === 0 || alias.length > TARGET_NAME_MAX) {
    return skip(`the alias cannot be a target name (1 to ${TARGET_NAME_MAX} characters, no surrounding spaces)`)
  }
  const problem = addressProblem(resolved.hostName)
  if (problem) return skip(`the address is not usable: ${problem}`)
  const user = SshUserSchema.safeParse(resolved.user)
  if (!user.success) return skip(user.error.issues[0]?.message ?? 'the user name is not usable')
  const auth: TargetAuth = resolved.identityFile
    ? { method: 'key', keyPath: resolved.identityFile.path, hasPassphrase: false }
    : { method: 'agent' }
  return { name: alias, address: resolved.hostName, port: resolved.port, user: resolved.user, auth, jumpChain: [], source }
}

/**
 * A target links one jump host, and that jump host its own: `ProxyJump a,b` means b is reached
 * through a. When b's own settings say otherwise, the link cannot say both; tell the user.
 */
function warnChainDisagreement(
  name: string,
  hops: JumpHop[],
  pending: { resolved: ResolvedHost; chainOverride?: JumpHop[] }[],
  byName: Map<string, SshConfigCandidate>,
  source: { file: string; line: number },
  warnings: SshConfigWarning[]
): void {
  for (let index = 1; index < hops.length; index++) {
    const hop = hops[index] as JumpHop
    const expected = hops.slice(0, index).map((h) => h.host)
    const waiting = pending.find((p) => p.resolved.alias === hop.host)
    const own = byName.get(foldName(hop.host))?.jumpChain ?? (waiting && (waiting.chainOverride ?? waiting.resolved.jumpHops).map((h) => h.host))
    if (own && own.join(',') !== expected.join(',')) {
      warnings.push({
        ...source,
        message: `${name}: ProxyJump reaches "${hop.host}" through ${expected.join(', ')}, but "${hop.host}" itself is set to ${own.length ? `jump through ${own.join(', ')}` : 'connect directly'}; VirtBench keeps "${hop.host}"'s own setting`
      })
    }
  }
}

/**
 * Candidates in an order where every jump host comes before the targets that use it, so each
 * can be added with its jump host's id already known.
 */
export function importOrder(candidates: readonly SshConfigCandidate[]): SshConfigCandidate[] {
  const byName = new Map(candidates.map((c) => [foldName(c.name), c]))
  const ordered: SshConfigCandidate[] = []
  const placed = new Set<SshConfigCandidate>()
  const visiting = new Set<SshConfigCandidate>()
  const place = (candidate: SshConfigCandidate): void => {
    if (placed.has(candidate) || visiting.has(candidate)) return
    visiting.add(candidate)
    const jump = candidate.jumpChain.at(-1)
    const jumpCandidate = jump === undefined ? undefined : byName.get(foldName(jump))
    if (jumpCandidate) place(jumpCandidate)
    visiting.delete(candidate)
    placed.add(candidate)
    ordered.push(candidate)
  }
  candidates.forEach(place)
  return ordered
}

// ---------------------------------------------------------------------------------------------
// Keys

/**
 * Whether a private key file is protected by a passphrase: OpenSSH keys name their cipher
 * (`none` when not encrypted), PEM keys say `ENCRYPTED`. Undefined when the file cannot be read
 * or is not a private key VirtBench recognises.
 */
export async function keyHasPassphrase(keyPath: string): Promise<boolean | undefined> {
  let text: string
  try {
    const handle = await fs.open(keyPath, 'r')
    try {
      const buffer = Buffer.alloc(64 * 1024)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
      text = buffer.subarray(0, bytesRead).toString('latin1')
    } finally {
      await handle.close()
    }
  } catch {
    return undefined
  }
  const openssh = /-----BEGIN OPENSSH PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END OPENSSH PRIVATE KEY-----/.exec(text)
  if (openssh) {
    const blob = Buffer.from((openssh[1] ?? '').replace(/\s/g, ''), 'base64')
    const magic = 'openssh-key-v1\0'
    if (blob.subarray(0, magic.length).toString('latin1') !== magic || blob.length < magic.length + 4) return undefined
    const length = blob.readUInt32BE(magic.length)
    const cipher = blob.subarray(magic.length + 4, magic.length + 4 + length).toString('latin1')
    return cipher !== 'none'
  }
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text)) return true
  if (/-----BEGIN (?:RSA |DSA |EC )?PRIVATE KEY-----/.test(text)) return /Proc-Type:\s*4,ENCRYPTED/.test(text)
  if (/PuTTY-User-Key-File-\d+:/.test(text)) return !/^Encryption:\s*none\s*$/m.test(text)
  return undefined
}
