/**
 * A network path whose rate is set: a network namespace joined to this machine's own (the root
 * namespace) by a veth pair, with a `tc` token bucket (tbf) on the egress of both ends, so traffic
 * either way between the namespace and the root namespace is held to `bitsPerSecond`.
 *
 *   root namespace  10.201.K.1/24  vbtrKr ──veth── vbtrKn  10.201.K.2/24  namespace vbtruth-<pid>-<n>
 *                   tbf (egress)                   tbf (egress), default route via 10.201.K.1
 *
 * K (0-255) is claimed across processes by creating /run/vbtruth-net/K exclusively (it holds the
 * owner's PID), so tests running at the same time never share a subnet. A process in the
 * namespace reaches every root-namespace address through its veth (so through its limit),
 * including the root end of another target's link: any of them can be a peer's address.
 *
 * This kernel has no netem: there is a rate truth, no delay truth.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { runCommand, sleep, tryCommand } from './command'
import { processAlive } from './owner'

export interface NetworkLimit {
  bitsPerSecond: number
  /** Token bucket depth (default: 10 ms at the rate, at least 32 KiB); see burstBytesFor. */
  burstBytes?: number
}

export interface LimitedLink {
  namespace: string
  /** For `nsenter --net=…`. */
  namespacePath: string
  rootInterface: string
  namespaceInterface: string
  /** The root namespace's address on the link: where the namespace reaches this machine. */
  rootAddress: string
  /** The namespace's address: where this machine reaches the namespace. */
  namespaceAddress: string
  bitsPerSecond: number
  burstBytes: number
  /** Ends what still runs in the namespace, deletes it (the veth pair goes with it) and frees the subnet. Idempotent. */
  stop(): Promise<void>
}

export const SUBNET_CLAIMS_DIR = '/run/vbtruth-net'
const SUBNETS = 256
/** 10 ms of traffic: enough that a sender delayed a few ms by a loaded CPU loses no tokens. */
const BURST_SECONDS = 0.01
const MIN_BURST_BYTES = 32 * 1024
/** How long a packet may wait in the tbf queue before it is dropped. */
const QUEUE_LATENCY = '50ms'

/**
 * The bucket depth for a rate: 10 ms at the rate and at least 32 KiB. A deeper bucket lets the
 * start of a test run faster than the rate (a 3 s iperf3 test at 200 Mbit/s with a 250 KB bucket
 * is 0.3 % fast; iperf3 -O 1 leaves it out entirely); a shallower one loses tokens whenever a
 * loaded CPU delays the sender, and the path then runs slower than its rate (measured: 32 KiB at
 * 200 Mbit/s gave 187-191 Mbit/s goodput under `stress-ng --cpu 2`, 250 KB gave 190-191).
 */
export function burstBytesFor(bitsPerSecond: number): number {
  return Math.max(MIN_BURST_BYTES, Math.ceil((bitsPerSecond / 8) * BURST_SECONDS))
}

/** The tc arguments that hold `dev`'s egress to `bitsPerSecond` (for `tc` or `tc -n <namespace>`). */
export function tbfArgs(dev: string, bitsPerSecond: number, burstBytes: number): string[] {
  if (!Number.isSafeInteger(bitsPerSecond) || bitsPerSecond < 8000) {
    throw new Error(`known-truth harness: a network rate is a whole number of bit/s, at least 8000, not ${bitsPerSecond}`)
  }
  return ['qdisc', 'replace', 'dev', dev, 'root', 'tbf', 'rate', `${bitsPerSecond}bit`, 'burst', String(burstBytes), 'latency', QUEUE_LATENCY]
}

/** Subnet claims whose owner process has ended, as paths. */
export function leftoverSubnetClaims(): string[] {
  let names: string[]
  try {
    names = readdirSync(SUBNET_CLAIMS_DIR)
  } catch {
    return []
  }
  return names
    .map((name) => path.join(SUBNET_CLAIMS_DIR, name))
    .filter((file) => {
      const owner = Number(readFileSync(file, 'utf8').trim())
      // an empty file is a claim being written; it is its writer's
      return owner > 0 && owner !== process.pid && !processAlive(owner)
    })
}

function subnetInUse(k: number, routes: string): boolean {
  return routes.split('\n').some((line) => line.startsWith(`10.201.${k}.`))
}

/** Claims a free 10.201.K.0/24 for this process (K in 0-255). */
async function claimSubnet(): Promise<{ k: number; release(): Promise<void> }> {
  await mkdir(SUBNET_CLAIMS_DIR, { recursive: true, mode: 0o755 })
  const routes = (await runCommand('ip', ['-4', 'route', 'show', 'table', 'all'])).stdout
  for (let k = 0; k < SUBNETS; k++) {
    if (subnetInUse(k, routes)) continue
    const file = path.join(SUBNET_CLAIMS_DIR, String(k))
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw err
    }
    return { k, release: () => rm(file, { force: true }) }
  }
  throw new Error(`known-truth harness: all ${SUBNETS} subnets 10.201.0-255.0/24 are taken (see ${SUBNET_CLAIMS_DIR}); stop other known-truth tests or remove leftovers`)
}

/** PIDs of the processes in network namespace `name`. */
export async function namespacePids(name: string): Promise<number[]> {
  const { stdout } = await runCommand('ip', ['netns', 'pids', name]).catch(() => ({ stdout: '' }))
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number)
}

/**
 * Kills what still runs in namespace `name` (only processes a target of ours started), deletes
 * the namespace and waits (up to 5 s) until its veth pair is gone from the root namespace.
 */
export async function deleteNamespace(name: string, rootInterface?: string): Promise<void> {
  const deadline = Date.now() + 5000
  for (let pids = await namespacePids(name); pids.length > 0 && Date.now() < deadline; pids = await namespacePids(name)) {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // gone meanwhile
      }
    }
    await sleep(25)
  }
  await tryCommand('ip', ['netns', 'delete', name])
  while (rootInterface !== undefined && existsSync(`/sys/class/net/${rootInterface}`) && Date.now() < deadline) await sleep(25)
}

/** Creates namespace `name` (see ownedName()) joined to the root namespace by a veth pair held to `limit`. */
export async function createLimitedLink(name: string, limit: NetworkLimit): Promise<LimitedLink> {
  const burstBytes = limit.burstBytes ?? burstBytesFor(limit.bitsPerSecond)
  const claim = await claimSubnet()
  const rootInterface = `vbtr${claim.k}r`
  const namespaceInterface = `vbtr${claim.k}n`
  const rootAddress = `10.201.${claim.k}.1`
  const namespaceAddress = `10.201.${claim.k}.2`
  const inNamespace = (...args: string[]): Promise<unknown> => runCommand('ip', ['-n', name, ...args])
  try {
    await runCommand('ip', ['netns', 'add', name])
    await runCommand('ip', ['link', 'add', rootInterface, 'type', 'veth', 'peer', 'name', namespaceInterface, 'netns', name])
    await runCommand('ip', ['addr', 'add', `${rootAddress}/24`, 'dev', rootInterface])
    await runCommand('ip', ['link', 'set', rootInterface, 'up'])
    await inNamespace('link', 'set', 'lo', 'up')
    await inNamespace('addr', 'add', `${namespaceAddress}/24`, 'dev', namespaceInterface)
    await inNamespace('link', 'set', namespaceInterface, 'up')
    await inNamespace('route', 'add', 'default', 'via', rootAddress)
    await runCommand('tc', tbfArgs(rootInterface, limit.bitsPerSecond, burstBytes))
    await runCommand('tc', ['-n', name, ...tbfArgs(namespaceInterface, limit.bitsPerSecond, burstBytes)])
  } catch (err) {
    await deleteNamespace(name, rootInterface)
    await claim.release()
    throw err
  }
  let stopping: Promise<void> | undefined
  return {
    namespace: name,
    namespacePath: `/run/netns/${name}`,
    rootInterface,
    namespaceInterface,
    rootAddress,
    namespaceAddress,
    bitsPerSecond: limit.bitsPerSecond,
    burstBytes,
    stop: () =>
      (stopping ??= (async () => {
        await deleteNamespace(name, rootInterface)
        await claim.release()
      })())
  }
}
