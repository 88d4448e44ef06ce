import type { PackageManager } from '../../tools/types'
import type { DeviceFacts, DeviceSignature, DirectoryFacts, IdleFacts, PortFacts, PreflightFacts, ProbeStatus, SignatureSource } from './facts'

/**
 * Reads what resources/scripts/linux/preflight.sh printed: `key<TAB>value[<TAB>value...]` lines
 * between `preflight 1` and `end 1`. Pure. Unknown keys are skipped (a newer script may say more);
 * a value that is not what its key promises is left out and named in `problems`, never guessed.
 */
export function parsePreflightOutput(text: string): PreflightFacts {
  const facts: PreflightFacts = { tools: {}, problems: [] }
  const problem = (message: string): void => void facts.problems.push(message)
  let sawHeader = false
  let sawEnd = false

  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '')
    if (line.trim() === '') continue
    const [key = '', ...fields] = line.split('\t')
    const value = fields[0] ?? ''
    const number = (pattern: RegExp): number | undefined => {
      if (pattern.test(value)) return Number(value)
      problem(`the preflight output has a bad ${key} value: ${quote(line)}`)
      return undefined
    }
    const whole = (): number | undefined => number(/^\d+$/)
    const decimal = (): number | undefined => number(/^\d+(\.\d+)?$/)
    const yes = (): boolean | undefined => (value === 'yes' ? true : value === 'no' ? false : void problem(`the preflight output has a bad ${key} value: ${quote(line)}`))

    if (key === 'preflight') sawHeader = true
    else if (key === 'end') sawEnd = true
    else if (key === 'error') problem(`the preflight script says: ${fields.join(' ')}`)
    else if (key === 'system') facts.system = value
    else if (key === 'uid') assign(facts, 'uid', whole())
    else if (key === 'cpus') assign(facts, 'cpus', whole())
    else if (key === 'mem_total_bytes') assign(facts, 'memTotalBytes', whole())
    else if (key === 'package_manager') {
      if (isPackageManager(value)) facts.packageManager = value
      else problem(`the preflight output names an unknown package manager: ${quote(line)}`)
    } else if (key === 'sudo') facts.sudo = { present: value === 'present' }
    else if (key === 'sudo.passwordless') {
      const ok = yes()
      if (ok !== undefined) facts.sudo = { present: true, ...facts.sudo, passwordless: ok }
    } else if (key === 'tool.found' && value) {
      const [, path, version] = fields
      facts.tools[value] = { found: true, ...(path ? { path } : {}), ...(version ? { version } : {}) }
    } else if (key === 'tool.missing' && value) facts.tools[value] = { found: false }
    else if (key.startsWith('dir.')) readDir(facts, key.slice(4), value, { yes, whole })
    else if (key.startsWith('device.')) readDevice(facts, key.slice(7), fields, { yes, whole })
    else if (key.startsWith('idle.')) readIdle(facts, key.slice(5), fields, { whole, decimal }, () => problem(`the preflight output has a bad ${key} value: ${quote(line)}`))
  }

  if (!sawHeader) problem(`this is not VirtBench preflight output (no "preflight" line): ${quote(text.trim().split('\n')[0] ?? '')}`)
  else if (!sawEnd) problem('the preflight output ended early (no "end" line): the facts after its last line were not read')
  return facts
}

interface Readers {
  yes: () => boolean | undefined
  whole: () => number | undefined
}

function readDir(facts: PreflightFacts, key: string, value: string, read: Readers): void {
  if (key === 'path') {
    facts.dir = { path: value }
    return
  }
  const dir: DirectoryFacts = (facts.dir ??= { path: '' })
  switch (key) {
    case 'existed':
      return assign(dir, 'existed', read.yes())
    case 'created':
      return assign(dir, 'created', read.yes())
    case 'mkdir_error':
      dir.mkdirError = value
      return
    case 'exists':
      return assign(dir, 'exists', read.yes())
    case 'writable':
      return assign(dir, 'writable', read.yes())
    case 'write_error':
      dir.writeError = value
      return
    case 'fstype':
      dir.fsType = value
      return
    case 'mount_point':
      dir.mountPoint = value
      return
    case 'source':
      dir.source = value
      return
    case 'free_bytes':
      return assign(dir, 'freeBytes', read.whole())
    case 'direct':
      return assign(dir, 'direct', read.yes())
    case 'direct_error':
      dir.directError = value
      return
  }
}

function newDevice(path: string): DeviceFacts {
  return { path, partitions: [], holders: [], mounts: [], swaps: [], signatures: [], probes: {} }
}

function readDevice(facts: PreflightFacts, key: string, fields: string[], read: Readers): void {
  const value = fields[0] ?? ''
  if (key === 'path') {
    facts.device = newDevice(value)
    return
  }
  const device = (facts.device ??= newDevice(''))
  const probe = /^(wipefs|blkid|lsblk)\.(status|error)$/.exec(key)
  if (probe) {
    const source = probe[1] as SignatureSource
    if (probe[2] === 'status') {
      if (value === 'ok' || value === 'absent' || value === 'failed') device.probes[source] = { status: value } as ProbeStatus
    } else {
      device.probes[source] = { status: 'failed', error: value }
    }
    return
  }
  switch (key) {
    case 'exists':
      return assign(device, 'exists', read.yes())
    case 'block':
      return assign(device, 'block', read.yes())
    case 'resolved':
      device.resolved = value
      return
    case 'name':
      device.name = value
      return
    case 'majmin':
      device.majMin = value
      return
    case 'partition_of':
      device.partitionOf = value
      return
    case 'size_bytes':
      return assign(device, 'sizeBytes', read.whole())
    case 'readonly':
      return assign(device, 'readonly', read.yes())
    case 'readable':
      return assign(device, 'readable', read.yes())
    case 'read_error':
      device.readError = value
      return
    case 'partition':
      if (value) device.partitions.push(value)
      return
    case 'holder': {
      const [of = '', name = '', dmName] = fields
      if (of && name) device.holders.push({ of, name, ...(dmName ? { dmName } : {}) })
      return
    }
    case 'mount': {
      const [source = '', mountPoint = '', fsType] = fields
      if (mountPoint) device.mounts.push({ source: unescapeMount(source), mountPoint: unescapeMount(mountPoint), ...(fsType ? { fsType } : {}) })
      return
    }
    case 'swap':
      if (value) device.swaps.push(unescapeMount(value))
      return
    case 'wipefs':
    case 'wipefs_raw':
    case 'blkid':
    case 'lsblk': {
      const signature = readSignature(key, fields.join(' ').trim())
      if (signature) device.signatures.push(signature)
      return
    }
  }
}

/** The signature a probe's output line names, or undefined when the line names none. */
export function readSignature(key: string, text: string): DeviceSignature | undefined {
  if (!text) return undefined
  if (key === 'wipefs') {
    // wipefs -O TYPE,OFFSET: "ext4 0x438"
    const type = text.split(/\s+/)[0]
    return { source: 'wipefs', ...(type ? { type } : {}), text }
  }
  if (key === 'wipefs_raw') {
    // older tables: "loop0 0x438 ext4 <uuid>" or "0x438 ext4 [filesystem]": the type follows the offset
    const words = text.split(/\s+/)
    const at = words.findIndex((w) => /^0x[0-9a-f]+$/i.test(w))
    if (at < 0) return undefined
    const type = words[at + 1]
    return { source: 'wipefs', ...(type ? { type } : {}), text }
  }
  if (key === 'blkid') {
    const type = /(?:^|\s)TYPE="([^"]*)"/.exec(text)?.[1] || /(?:^|\s)PTTYPE="([^"]*)"/.exec(text)?.[1]
    return { source: 'blkid', ...(type ? { type } : {}), text }
  }
  // lsblk -P: NAME="sdb" FSTYPE="" PTTYPE="gpt"; empty values prove nothing (udev may not know)
  const type = /FSTYPE="([^"]*)"/.exec(text)?.[1] || /PTTYPE="([^"]*)"/.exec(text)?.[1]
  return type ? { source: 'lsblk', type, text } : undefined
}

function readIdle(
  facts: PreflightFacts,
  key: string,
  fields: string[],
  read: { whole: () => number | undefined; decimal: () => number | undefined },
  bad: () => void
): void {
  const idle: IdleFacts = (facts.idle ??= { seconds: 0 })
  switch (key) {
    case 'seconds':
      return assign(idle, 'seconds', read.whole())
    case 'load': {
      const values = fields.slice(0, 3)
      if (values.length === 3 && values.every((v) => /^\d+(\.\d+)?$/.test(v))) idle.load = values.map(Number) as [number, number, number]
      else bad()
      return
    }
    case 'busy_pct':
      return assign(idle, 'busyPct', read.decimal())
    case 'iowait_pct':
      return assign(idle, 'iowaitPct', read.decimal())
    case 'steal_pct':
      return assign(idle, 'stealPct', read.decimal())
  }
}

function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value
}

const PACKAGE_MANAGERS: readonly PackageManager[] = ['apt', 'dnf', 'yum', 'zypper', 'apk']

function isPackageManager(value: string): value is PackageManager {
  return (PACKAGE_MANAGERS as readonly string[]).includes(value)
}

/** /proc/self/mountinfo and /proc/swaps write space, tab, newline and backslash as \ooo. */
export function unescapeMount(value: string): string {
  return value.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)))
}

function quote(text: string): string {
  const clean = text.replace(/[\p{Cc}]/gu, ' ')
  return `"${clean.length > 120 ? `${clean.slice(0, 117)}...` : clean}"`
}

/**
 * Pure: checks.sh's `ports` section (`port<TAB>PORT<TAB>listening|free|unknown[<TAB>PROGRAM]`).
 * A port asked about that has no line, or a line that does not read, is `unknown`.
 */
export function parsePortFacts(text: string, asked: readonly number[]): PortFacts[] {
  const read = new Map<number, PortFacts>()
  for (const line of text.split('\n')) {
    const [key, port, state, program] = line.replace(/\r$/, '').split('\t')
    if (key !== 'port' || !/^\d+$/.test(port ?? '') || (state !== 'listening' && state !== 'free' && state !== 'unknown')) continue
    read.set(Number(port), { port: Number(port), state, ...(program ? { program } : {}) })
  }
  return [...new Set(asked)].map((port) => read.get(port) ?? { port, state: 'unknown' })
}
