/**
 * A known-truth target: a real sshd (tests/harness/sshd.ts) whose speed the test sets.
 *
 *   const slow = await startLimitedSshd({ name: 'guest', cpu: { percentOfOneCpu: 12 } })
 *   await sshExec(slow.server, 'sysbench cpu --time=3 run')   // runs at 12 % of one CPU
 *   await slow.stop()
 *
 * sshd is started through a launch prefix, so sshd, every session and everything a session
 * starts (detached jobs included) are:
 * - in the target's cgroup (always: the highest CPU weight; a CFS quota with `cpu`; blkio / io
 *   throttles on the target's own loop device with `disk`), joined by the shell that then execs
 *   sshd, so no process ever runs outside it;
 * - with `cpu`, pinned to one CPU (`cpu.cpus`, default the first this process may use), the same
 *   for every CPU-limited target, so that all of them see the same CPU speed;
 * - with `network`, in a network namespace reached at `host` (its veth address) through a tc
 *   rate limit; `peerAddress` is this machine's address on that link, where a peer's server
 *   listens;
 * - with `workDir`, in a private mount namespace where the target's own directory (its loop
 *   disk, else a plain directory) is bind-mounted at `workDir`: several targets given the same
 *   `workDir` (one plan's storage path) each see and fill only their own.
 */
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { TargetSchema, type Target, type TargetRole } from '../../../src/shared/model/target'
import { startSshd, type SshdOptions, type SshdServer } from '../sshd'
import { createCgroup, type CpuLimit, type IoLimit, type TruthCgroup } from './cgroup'
import { removeLeftoversOnce } from './leftovers'
import { createLoopDisk, type LoopDisk } from './loop-disk'
import { createLimitedLink, type LimitedLink, type NetworkLimit } from './netns'
import { ownedName } from './owner'

export interface DiskLimit extends IoLimit {
  /** Size of the target's disk image (default 256 MiB, sparse). */
  imageBytes?: number
}

/** The truth a target is given: what the test compares VirtBench's figures with. */
export interface TruthLimits {
  cpu?: CpuLimit
  disk?: DiskLimit
  network?: NetworkLimit
}

export interface LimitedSshdOptions extends TruthLimits {
  /** The target's name (in messages and in `target()`). */
  name: string
  /** Where the target sees its own work directory (a private mount namespace binds it there); default: its own directory's real path. */
  workDir?: string
  sshd?: Pick<SshdOptions, 'maxSessions' | 'extraConfig' | 'password' | 'startTimeoutMs'>
}

export interface LimitedTarget {
  name: string
  limits: TruthLimits
  server: SshdServer
  /** What a client dials: 127.0.0.1, or the namespace's veth address with `network`. */
  host: string
  port: number
  user: string
  /** The user key that logs in (OpenSSH format, no passphrase). */
  keyPath: string
  /** `ssh-ed25519 AAAA…`: the host key a client must see. */
  hostPublicKey: string
  /** The host key as a known_hosts line: `[host]:port ssh-ed25519 AAAA…`. */
  knownHostsLine: string
  /** `ssh://user@host:port`, as `virtbench run --baseline name=URL` takes it. */
  url: string
  /** The work directory as the target sees it (a plan's storage path). */
  workDir: string
  /** The same directory as this test process sees it. */
  hostWorkDir: string
  /** This machine as the target reaches it: the root end of its veth with `network`, else 127.0.0.1. */
  peerAddress: string
  cgroup: TruthCgroup
  disk?: LoopDisk
  link?: LimitedLink
  /** The target's own temp directory (`vbtruth-<pid>-<n>-…`): its disk image and mount point, or its plain work directory. */
  dir: string
  /** The target as an inventory entry (key auth with its own key unless given another `keyPath`). */
  target(fields: Omit<InventoryFields, 'name'>): Target
  /** Stops sshd, ends what the target still runs, removes its cgroup, namespace, disk and directory. Idempotent. */
  stop(): Promise<void>
}

/** The first CPU this process may run on (from /proc/self/status), where CPU-limited targets are pinned by default. */
export function firstAllowedCpu(): string {
  const list = /^Cpus_allowed_list:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))
  return list?.[1] ?? '0'
}

/** Words that make the program after them join every cgroup whose cgroup.procs is listed, then exec. */
export function joinCgroupsPrefix(procsFiles: readonly string[]): string[] {
  return ['sh', '-c', 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"', 'sh', ...procsFiles, '--']
}

/** Words that run the program after them in a private mount namespace with `source` bind-mounted at `target`. */
export function bindMountPrefix(source: string, target: string): string[] {
  return ['unshare', '--mount', '--propagation', 'private', '--', 'sh', '-c', 'mount --bind "$1" "$2" && shift 2 && exec "$@"', 'sh', source, target]
}

/** `[host]:port type key` for a known_hosts file. */
export function knownHostsLine(host: string, port: number, hostPublicKey: string): string {
  const [type, key] = hostPublicKey.split(/\s+/)
  return `[${host}]:${port} ${type} ${key}`
}

export interface InventoryFields {
  name: string
  role: TargetRole
  /** Default: `t-<name>`. */
  id?: string
  /** Default: the server's own user key. */
  keyPath?: string
  /** The address other machines reach this one at (a network test's peer address). */
  privateAddress?: string
}

/** An sshd of the fixture as a saved SSH target (key auth), as VirtBench's inventory holds it. */
export function inventoryTarget(server: SshdServer, fields: InventoryFields): Target {
  const now = new Date().toISOString()
  return TargetSchema.parse({
    id: fields.id ?? `t-${fields.name.replace(/[^A-Za-z0-9_-]/g, '-')}`,
    name: fields.name,
    kind: 'ssh',
    role: fields.role,
    address: server.host,
    port: server.port,
    user: server.username,
    auth: { method: 'key', keyPath: fields.keyPath ?? server.privateKeyPath },
    ...(fields.privateAddress ? { addresses: { private: fields.privateAddress } } : {}),
    createdAt: now,
    updatedAt: now
  })
}

/** Stops what was started, last first; every step runs even when an earlier one fails, and the first failure is rethrown. */
export async function stopAll(stops: (() => Promise<void>)[]): Promise<void> {
  let first: unknown
  for (const stop of [...stops].reverse()) {
    try {
      await stop()
    } catch (err) {
      first ??= err
    }
  }
  if (first !== undefined) throw first
}

export async function startLimitedSshd(options: LimitedSshdOptions): Promise<LimitedTarget> {
  await removeLeftoversOnce()
  const own = ownedName()
  const dir = await mkdtemp(path.join(os.tmpdir(), `${own}-`))
  const stops: (() => Promise<void>)[] = [() => rm(dir, { recursive: true, force: true })]
  try {
    const { cpu, disk: diskLimit, network } = options
    const disk = diskLimit ? await createLoopDisk({ dir, sizeBytes: diskLimit.imageBytes }) : undefined
    if (disk) stops.push(disk.stop)
    const hostWorkDir = disk?.mountPoint ?? path.join(dir, 'work')
    if (!disk) await mkdir(hostWorkDir)
    const link = network ? await createLimitedLink(own, network) : undefined
    if (link) stops.push(link.stop)
    // stopped before the namespace and the disk: what still runs in the target ends first
    const cgroup = await createCgroup(own, { cpu, io: disk && diskLimit ? { ...diskLimit, device: disk.majorMinor } : undefined })
    stops.push(cgroup.stop)
    const workDir = options.workDir ?? hostWorkDir
    const launchPrefix = [
      ...joinCgroupsPrefix(cgroup.procsFiles),
      ...(cpu ? ['taskset', '--cpu-list', cpu.cpus ?? firstAllowedCpu()] : []),
      ...(link ? ['nsenter', `--net=${link.namespacePath}`, '--'] : []),
      ...(workDir !== hostWorkDir ? bindMountPrefix(hostWorkDir, workDir) : [])
    ]
    const server = await startSshd({ ...options.sshd, listenAddress: link?.namespaceAddress, launchPrefix })
    stops.push(server.stop)
    let stopped: Promise<void> | undefined
    return {
      name: options.name,
      limits: { cpu, disk: diskLimit, network },
      server,
      host: server.host,
      port: server.port,
      user: server.username,
      keyPath: server.privateKeyPath,
      hostPublicKey: server.hostPublicKey,
      knownHostsLine: knownHostsLine(server.host, server.port, server.hostPublicKey),
      url: `ssh://${server.username}@${server.host}:${server.port}`,
      workDir,
      hostWorkDir,
      peerAddress: link?.rootAddress ?? '127.0.0.1',
      cgroup,
      disk,
      link,
      dir,
      target: (fields) => inventoryTarget(server, { name: options.name, ...fields }),
      stop: () => (stopped ??= stopAll(stops))
    }
  } catch (err) {
    await stopAll(stops).catch(() => undefined)
    throw new Error(`known-truth target ${options.name}: could not start: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
}
