import type { Finding } from '../../../shared/model/run'
import { quoteSh } from '../../../shared/shell-quote'
import { TOOLS } from '../../tools/registry'
import type { StorageNeed, ToolId } from '../../tools/types'
import { isUnreachable, type DeviceFacts, type DeviceSignature, type DirectoryFacts, type PreflightFacts, type Unreachable } from './facts'
import { displayInstall, installPlan, type InstallPlan } from './install'
import type { ServerPort } from './ports'

/**
 * The preflight rules (issue 5, docs/preflight.md): from what each target has and what the plan
 * needs, the findings a person reads before anything runs. Pure. Errors stop the run; warnings are
 * shown and the run may go on; info records what was found.
 */

/** What the storage tests of the plan need on one target: the largest working set, direct I/O or uncached when any test is. */
export type StorageNeeds = StorageNeed

export interface PreflightTarget {
  name: string
  role: 'baseline' | 'variant' | 'peer'
  facts: PreflightFacts | Unreachable
  /** The tools the plan runs there. */
  tools: readonly ToolId[]
  /** Absent when no storage test runs there (a network peer). */
  storage?: StorageNeeds
  /** The TCP ports the plan's network servers listen on there (iperf3, iperf 2). */
  servers?: readonly ServerPort[]
}

/** Where storage tests write: the plan's StorageTarget, with a confirmation that may be missing. */
export type StorageChoice = { kind: 'directory'; path: string } | { kind: 'device'; path: string; confirm?: string }

export interface IdleThresholds {
  /** 1-minute load average per CPU. */
  loadPerCpu: number
  busyPct: number
  iowaitPct: number
  stealPct: number
}

export const DEFAULT_IDLE_THRESHOLDS: IdleThresholds = { loadPerCpu: 0.5, busyPct: 10, iowaitPct: 5, stealPct: 5 }

/** Free space needed in the test directory, as a multiple of the largest working set. */
export const SPACE_FACTOR = 1.2
/** A test that promises uncached numbers needs a working set of at least this many times the RAM. */
export const RAM_FACTOR = 2

export interface PreflightInput {
  targets: readonly PreflightTarget[]
  storage: StorageChoice
  idle?: Partial<IdleThresholds>
}

export function evaluatePreflight(input: PreflightInput): Finding[] {
  const findings: Finding[] = []
  const storageTargets = input.targets.filter((t) => t.storage).map((t) => t.name)
  if (input.storage.kind === 'device' && storageTargets.length > 0) {
    const f = deviceConfirmationFinding(input.storage, storageTargets)
    if (f) findings.push(f)
  }
  const idle = { ...DEFAULT_IDLE_THRESHOLDS, ...input.idle }
  for (const target of input.targets) findings.push(...checkTarget(target, input.storage, idle))
  return findings
}

/** True when the plan writes to a raw device and the confirmation names exactly that device. */
export function deviceConfirmed(storage: StorageChoice): boolean {
  return storage.kind === 'directory' || storage.confirm === storage.path
}

/** The finding that refuses a raw-device plan without its confirmation, or undefined when confirmed. */
export function deviceConfirmationFinding(storage: StorageChoice, targets: readonly string[]): Finding | undefined {
  if (storage.kind !== 'device' || deviceConfirmed(storage)) return undefined
  const on = targets.length ? ` on ${listWords(targets)}` : ''
  const typed = storage.confirm?.trim() ?? ''
  if (!typed) {
    return {
      severity: 'error',
      code: 'device-confirm-missing',
      message: `The plan writes to the raw device ${storage.path}${on}, destroying everything on it, but carries no confirmation naming that device.`,
      fix: `Type the device path ${storage.path} again in the confirmation field (storage.confirm in a preset) to say you mean it.`
    }
  }
  return {
    severity: 'error',
    code: 'device-confirm-mismatch',
    message: `The plan writes to the raw device ${storage.path}${on}, but its confirmation says ${JSON.stringify(storage.confirm)}, not ${storage.path}.`,
    fix: `Type exactly ${storage.path} as the confirmation, or correct the device path if ${storage.path} is not the disk you mean.`
  }
}

function checkTarget(target: PreflightTarget, storage: StorageChoice, idle: IdleThresholds): Finding[] {
  const { name } = target
  if (isUnreachable(target.facts)) {
    return [
      error(name, 'unreachable', `${name} (${ROLE_WORDS[target.role]}) cannot be reached: ${target.facts.unreachable}`, {
        fix: `Check that ${name} is running and that its address, port, user and key are right (Targets, Test connection), then run the checks again.`
      })
    ]
  }
  const facts = target.facts
  const findings: Finding[] = []
  if (facts.problems.length > 0) {
    findings.push(
      warning(name, 'preflight-incomplete', `Some checks on ${name} could not be completed: ${facts.problems.join('; ')}.`, {
        fix: `The findings for ${name} may miss something; fix what is named above and run the checks again.`
      })
    )
  }
  for (const tool of target.tools) findings.push(...checkTool(name, tool, facts))
  if (target.storage) {
    if (storage.kind === 'directory') findings.push(...checkDirectory(name, storage.path, target.storage, facts))
    else findings.push(...checkDevice(name, storage.path, target.storage, facts))
    findings.push(...checkCache(name, target.storage, facts))
  }
  findings.push(...checkPorts(name, target.servers ?? [], facts))
  findings.push(...checkIdle(name, facts, idle))
  return findings
}

// ---- network servers' ports ----------------------------------------------------------------------

/** A server the plan starts cannot listen where something listens already: each of its jobs would fail. */
function checkPorts(name: string, servers: readonly ServerPort[], facts: PreflightFacts): Finding[] {
  const findings: Finding[] = []
  for (const server of servers) {
    const found = facts.ports?.find((p) => p.port === server.port)
    if (!found) continue
    const toolName = TOOLS[server.tool].name
    if (found.state === 'listening') {
      const who = found.program ?? 'a program the login user may not see (another user\'s)'
      const pid = found.program ? /\(pid (\d+)\)/.exec(found.program)?.[1] : undefined
      const leftover = found.program?.split(' ')[0] === server.tool
      const stop = leftover ? `It looks like an ${toolName} server left running: stop it on ${name}${pid ? ` (kill ${pid})` : ''}` : `Stop ${found.program ?? 'it'} on ${name}`
      findings.push(
        error(name, 'port-taken', `TCP port ${server.port}, where ${toolName}'s server must listen on ${name}, is taken already by ${who}: every ${toolName} job with its server there would fail ("Address already in use").`, {
          fix: `${stop}, or give the test another port (its "port" setting), then run the checks again.`
        })
      )
    } else if (found.state === 'unknown') {
      findings.push(
        warning(name, 'port-not-checked', `Whether TCP port ${server.port} (${toolName}'s server) is free on ${name} could not be read (/proc/net/tcp).`, {
          fix: `Check on ${name} that nothing listens on port ${server.port} (ss -ltn), or the ${toolName} jobs may fail.`
        })
      )
    }
  }
  return findings
}

// ---- tools ---------------------------------------------------------------------------------------

function checkTool(name: string, tool: ToolId, facts: PreflightFacts): Finding[] {
  // every finding about the tool names it by id, so the UI and the CLI can act on it (install, point to a binary)
  return toolFindings(name, tool, facts).map((f) => ({ ...f, tool }))
}

function toolFindings(name: string, tool: ToolId, facts: PreflightFacts): Finding[] {
  const toolName = TOOLS[tool].name
  const found = facts.tools[tool]
  if (!found) {
    return [warning(name, 'tool-not-checked', `Whether ${toolName} is installed on ${name} was not checked.`, { fix: `Run the checks again; if this stays, check ${name} by hand.` })]
  }
  if (found.found) {
    const where = found.path ? ` at ${found.path}` : ''
    return [info(name, 'tool-present', `${toolName} is installed on ${name}${where}${found.version ? ` (${found.version})` : ''}.`)]
  }
  const missing = tool === 'unixbench' ? `UnixBench is not on ${name} (no folder with ./Run in ~/byte-unixbench/UnixBench, ~/UnixBench or /opt)` : `${toolName} is not installed on ${name}`
  const pm = facts.packageManager
  if (!pm) {
    return [
      error(name, 'tool-missing', `${missing}.`, {
        fix: `No package manager VirtBench knows (apt-get, dnf, yum, zypper, apk) was found on ${name}: install ${toolName} there by hand, then run the checks again.`
      })
    ]
  }
  const plan = installPlan(tool, pm)
  if (!plan) {
    const notes = TOOLS[tool].install.filter((r) => r.kind !== 'download').map((r) => r.note).filter(Boolean)
    return [
      error(name, 'tool-missing', `${missing}, and ${pm} has no package for it.`, {
        fix: notes.length ? `Install ${toolName} on ${name} by hand: ${notes.join(' ')} Then run the checks again.` : `Install ${toolName} on ${name} by hand, then run the checks again.`
      })
    ]
  }
  const command = displayInstall(plan, facts.uid !== 0)
  const needsPassword = facts.uid !== 0 && facts.sudo?.passwordless !== true
  const sudoWords = needsPassword ? ` It needs sudo there: give VirtBench ${name}'s sudo password in Targets, or run it yourself.` : ''
  return [
    error(name, 'tool-missing', `${missing}.`, {
      fix: `Install it: VirtBench can run \`${command}\` on ${name} when you say so.${sudoWords}${plan.notes.length ? ` ${plan.notes.join(' ')}` : ''}`,
      command
    })
  ]
}

/** Every missing tool that can be installed, with how: what the UI offers to run. */
export interface InstallOffer {
  target: string
  tool: ToolId
  plan: InstallPlan
  /** What a person would type (sudo included when the login user is not root). */
  command: string
}

export function installOffers(targets: readonly PreflightTarget[]): InstallOffer[] {
  const offers: InstallOffer[] = []
  for (const target of targets) {
    if (isUnreachable(target.facts)) continue
    const { packageManager, uid } = target.facts
    for (const tool of target.tools) {
      if (target.facts.tools[tool]?.found !== false || !packageManager) continue
      const plan = installPlan(tool, packageManager)
      if (plan) offers.push({ target: target.name, tool, plan, command: displayInstall(plan, uid !== 0) })
    }
  }
  return offers
}

// ---- the test directory --------------------------------------------------------------------------

const MEMORY_FILESYSTEMS = new Set(['tmpfs', 'ramfs', 'devtmpfs'])

function checkDirectory(name: string, path: string, needs: StorageNeeds, facts: PreflightFacts): Finding[] {
  const dir: DirectoryFacts | undefined = facts.dir
  if (!dir) return [warning(name, 'dir-not-checked', `The test directory ${path} on ${name} was not checked.`, { fix: 'Run the checks again.' })]
  const shown = dir.path || path
  if (dir.exists === false) {
    return [
      error(name, 'dir-missing', `The test directory ${shown} does not exist on ${name} and could not be created${dir.mkdirError ? `: ${dir.mkdirError}` : ''}.`, {
        fix: `Create it on ${name} (mkdir -p ${quoteSh(shown)}) and make it writable by the login user, or choose another directory.`
      })
    ]
  }
  const findings: Finding[] = []
  if (dir.writable === false) {
    findings.push(
      error(name, 'dir-not-writable', `The login user cannot write in the test directory ${shown} on ${name}${dir.writeError ? `: ${dir.writeError}` : ''}.`, {
        fix: `Make it writable by the login user (chown or chmod on ${name}), or choose another directory.`
      })
    )
  }
  const onMemory = dir.fsType !== undefined && MEMORY_FILESYSTEMS.has(dir.fsType)
  const mounted = dir.mountPoint ? `, mounted at ${dir.mountPoint}` : ''
  if (onMemory && needs.directIo) {
    findings.push(
      error(name, 'tmpfs-direct', `The test directory ${shown} on ${name} is on ${dir.fsType} (memory${mounted}): direct I/O there measures RAM, not a disk, and older kernels refuse O_DIRECT on it.`, {
        fix: `Choose a directory on the disk you want to measure on ${name} (not /tmp or /dev/shm when they are ${dir.fsType}).`
      })
    )
  } else if (onMemory) {
    findings.push(
      warning(name, 'tmpfs-dir', `The test directory ${shown} on ${name} is on ${dir.fsType} (memory${mounted}): storage tests there measure RAM, not a disk.`, {
        fix: `Choose a directory on the disk you want to measure on ${name}.`
      })
    )
  } else if (needs.directIo && dir.direct === false) {
    const refused = dir.directError !== undefined && /invalid argument/i.test(dir.directError)
    findings.push(
      refused
        ? error(name, 'direct-unsupported', `The filesystem of ${shown} on ${name}${dir.fsType ? ` (${dir.fsType})` : ''} refuses direct I/O (O_DIRECT): ${dir.directError}.`, {
            fix: `Choose a directory on a filesystem that supports O_DIRECT (ext4, xfs, btrfs), or run the tests without direct I/O.`
          })
        : warning(name, 'direct-not-checked', `Whether direct I/O works in ${shown} on ${name} could not be checked${dir.directError ? `: ${dir.directError}` : ''}.`, {
            fix: 'The tests with direct I/O may fail there; their output will say why.'
          })
    )
  }
  const needed = needs.workingSetBytes * SPACE_FACTOR
  if (dir.freeBytes === undefined) {
    findings.push(warning(name, 'space-unknown', `The free space in ${shown} on ${name} could not be read.`, { fix: `Make sure it has at least ${formatBytes(needed)} free.` }))
  } else if (dir.freeBytes < needed) {
    findings.push(
      error(
        name,
        'space',
        `${shown} on ${name} has ${formatBytes(dir.freeBytes)} free, but the largest test writes ${formatBytes(needs.workingSetBytes)} and needs ${formatBytes(needed)} (${SPACE_FACTOR} times that).`,
        { fix: `Free at least ${formatBytes(needed - dir.freeBytes)} there, choose a directory on a larger filesystem, or make the tests smaller.` }
      )
    )
  }
  return findings
}

// ---- the raw device ------------------------------------------------------------------------------

function checkDevice(name: string, path: string, needs: StorageNeeds, facts: PreflightFacts): Finding[] {
  const device: DeviceFacts | undefined = facts.device
  if (!device) return [error(name, 'device-not-checked', `The device ${path} on ${name} was not checked, so VirtBench cannot tell whether writing to it is safe.`, { fix: 'Run the checks again.' })]
  if (device.checkError) {
    return [error(name, 'device-unreadable', `The device ${path} on ${name} could not be checked: ${device.checkError}`, { fix: SUDO_FIX(name) })]
  }
  if (device.exists === false) {
    return [
      error(name, 'device-missing', `The device ${path} does not exist on ${name}.`, {
        fix: `Check the device name on ${name} (lsblk lists its disks; guests often see an extra disk as /dev/vdb or /dev/sdb).`
      })
    ]
  }
  if (device.block === false) {
    return [error(name, 'device-not-block', `${path} on ${name} is not a block device.`, { fix: 'Name a disk or a partition (such as /dev/vdb), or test in a directory instead.' })]
  }
  if (device.exists !== true || device.block !== true) {
    return [error(name, 'device-not-checked', `Whether ${path} exists on ${name} as a block device could not be read.`, { fix: 'Run the checks again.' })]
  }

  const findings: Finding[] = []
  const also = device.resolved && device.resolved !== path ? ` (${device.resolved})` : ''
  const dev = `${path}${also}`
  if (device.readonly) findings.push(error(name, 'device-readonly', `${dev} on ${name} is read-only.`, { fix: 'Attach it read-write, or choose another device.' }))
  for (const m of device.mounts) {
    findings.push(
      error(name, 'device-mounted', `${dev} on ${name} is in use: ${m.source} is mounted on ${m.mountPoint}${m.fsType ? ` (${m.fsType})` : ''}.`, {
        fix: `Writing to it would destroy that filesystem. Choose another device, or, if its data is no longer needed, unmount it (umount ${quoteSh(m.mountPoint)}) and remove it from /etc/fstab.`
      })
    )
  }
  for (const swap of device.swaps) {
    findings.push(
      error(name, 'device-swap', `${dev} on ${name} is in use as swap (${swap}).`, {
        fix: `Choose another device, or turn that swap off (swapoff ${quoteSh(swap)}) and remove it from /etc/fstab.`
      })
    )
  }
  if (device.holders.length > 0) {
    const held = device.holders.map((h) => `${h.of} by ${h.name}${h.dmName ? ` (${h.dmName})` : ''}`)
    findings.push(
      error(name, 'device-in-use', `${dev} on ${name} is in use: held ${listWords(held)} (LVM, RAID, encryption or multipath).`, {
        fix: 'Choose another device, or, if its data is no longer needed, take that layer down first (lvremove/vgremove/pvremove, mdadm --stop, cryptsetup close).'
      })
    )
  }
  if (device.partitions.length > 0) {
    findings.push(
      error(name, 'device-partitioned', `${dev} on ${name} has partitions: ${device.partitions.join(', ')}.`, {
        fix: `A raw-device test overwrites them. Choose another device, or, if their data is no longer needed, erase the partition table (wipefs -a ${quoteSh(path)}).`
      })
    )
  }
  if (device.signatures.length > 0) {
    findings.push(
      error(name, 'device-signature', `${dev} on ${name} is not empty: ${describeSignatures(device.signatures)}.`, {
        fix: `A raw-device test overwrites it. Choose another device, or, if its data is no longer needed, erase the signatures (wipefs -a ${quoteSh(path)}).`
      })
    )
  } else if (device.partitions.length === 0) {
    const blind = blindness(device)
    if (blind) findings.push(error(name, 'device-unreadable', `VirtBench could not check whether ${dev} on ${name} holds data: ${blind.reason}.`, { fix: blind.fix(name) }))
  }
  if (device.sizeBytes !== undefined && device.sizeBytes < needs.workingSetBytes) {
    findings.push(
      error(name, 'device-too-small', `${dev} on ${name} holds ${formatBytes(device.sizeBytes)}, but the largest test needs ${formatBytes(needs.workingSetBytes)}.`, {
        fix: 'Choose a larger device, or make the tests smaller.'
      })
    )
  }
  return findings
}

const SUDO_FIX = (name: string): string =>
  `Reading a device needs root: set up sudo for ${name} in Targets (passwordless, or with its password), then run the checks again.`

/** Why "no signature found" cannot be trusted, or undefined when it can. */
function blindness(device: DeviceFacts): { reason: string; fix: (name: string) => string } | undefined {
  const { wipefs, blkid } = device.probes
  const read = device.readable !== false
  if (read && (wipefs?.status === 'ok' || blkid?.status === 'ok')) return undefined
  const reasons: string[] = []
  if (!read) reasons.push(`reading it failed${device.readError ? ` (${device.readError})` : ''}`)
  for (const [tool, status] of [
    ['wipefs', wipefs],
    ['blkid', blkid]
  ] as const) {
    if (status?.status === 'failed') reasons.push(`${tool} failed${status.error ? ` (${status.error})` : ''}`)
  }
  const absent = wipefs?.status !== 'ok' && wipefs?.status !== 'failed' && blkid?.status !== 'ok' && blkid?.status !== 'failed'
  if (absent) reasons.push('neither wipefs nor blkid is installed')
  if (absent && read) return { reason: reasons.join('; '), fix: (name) => `Install util-linux (wipefs, blkid) on ${name}, then run the checks again.` }
  return { reason: reasons.join('; '), fix: SUDO_FIX }
}

/** 'ext4 (wipefs: "ext4 0x438"; blkid: "...")', one entry per signature type. */
function describeSignatures(signatures: readonly DeviceSignature[]): string {
  const byType = new Map<string, DeviceSignature[]>()
  for (const s of signatures) {
    const key = s.type ?? 'a signature'
    byType.set(key, [...(byType.get(key) ?? []), s])
  }
  const kinds = [...byType].map(([type, list]) => `${type} (${list.map((s) => `${s.source}: ${JSON.stringify(s.text)}`).join('; ')})`)
  return `it holds ${listWords(kinds)}`
}

// ---- page cache ----------------------------------------------------------------------------------

function checkCache(name: string, needs: StorageNeeds, facts: PreflightFacts): Finding[] {
  if (!needs.uncached) return []
  const ram = facts.memTotalBytes
  if (ram === undefined) {
    return [warning(name, 'memory-unknown', `The RAM of ${name} could not be read, so whether its page cache can hold the test files is unknown.`, { fix: 'Check /proc/meminfo on it.' })]
  }
  if (needs.workingSetBytes >= RAM_FACTOR * ram) return []
  return [
    warning(
      name,
      'cache-fits',
      `The largest storage test on ${name} works on ${formatBytes(needs.workingSetBytes)}, less than twice its ${formatBytes(ram)} of RAM: the page cache can hold much of it, so the numbers may measure memory rather than the disk.`,
      { fix: `Use a working set of at least ${formatBytes(RAM_FACTOR * ram)} on ${name}, or direct I/O.` }
    )
  ]
}

// ---- idle gate -----------------------------------------------------------------------------------

function checkIdle(name: string, facts: PreflightFacts, limits: IdleThresholds): Finding[] {
  const idle = facts.idle
  if (!idle) return []
  const readings: string[] = []
  const cpus = facts.cpus ?? 1
  if (idle.load && idle.load[0] > limits.loadPerCpu * cpus) readings.push(`load average ${idle.load[0]} on ${cpus} CPU${cpus === 1 ? '' : 's'}`)
  if (idle.busyPct !== undefined && idle.busyPct > limits.busyPct) readings.push(`CPU ${idle.busyPct} % busy`)
  if (idle.iowaitPct !== undefined && idle.iowaitPct > limits.iowaitPct) readings.push(`${idle.iowaitPct} % of CPU time waiting for I/O`)
  if (idle.stealPct !== undefined && idle.stealPct > limits.stealPct) readings.push(`${idle.stealPct} % of CPU time taken by the hypervisor (steal)`)
  if (readings.length === 0) return []
  return [
    warning(name, 'not-idle', `${name} is not idle: ${listWords(readings)} over ${idle.seconds} s.`, {
      fix: `Other work on ${name} (or on its physical host) disturbs the measurements: stop it (top shows what runs), or wait and run the checks again.`
    })
  ]
}

// ---- words ---------------------------------------------------------------------------------------

const ROLE_WORDS: Record<PreflightTarget['role'], string> = { baseline: 'the baseline', variant: 'a variant', peer: 'the network peer' }

const KiB = 1024
const MiB = 1024 * KiB
const GiB = 1024 * MiB
const TiB = 1024 * GiB

/** Sizes for people: 1 decimal in the largest binary unit that keeps the number at least 1. */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [TiB, 'TiB'],
    [GiB, 'GiB'],
    [MiB, 'MiB'],
    [KiB, 'KiB']
  ]
  for (const [size, unit] of units) if (bytes >= size) return `${(bytes / size).toFixed(1)} ${unit}`
  return `${Math.round(bytes)} bytes`
}

function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

function finding(severity: Finding['severity'], target: string, code: string, message: string, extra: { fix?: string; command?: string } = {}): Finding {
  return { severity, target, code, message, ...extra }
}

const error = (target: string, code: string, message: string, extra?: { fix?: string; command?: string }): Finding => finding('error', target, code, message, extra)
const warning = (target: string, code: string, message: string, extra?: { fix?: string; command?: string }): Finding => finding('warning', target, code, message, extra)
const info = (target: string, code: string, message: string): Finding => finding('info', target, code, message)
