/**
 * What the lab tests share: the image (built once, cached outside the repository; the first
 * test process builds it, the others wait on its lock), guests booted in a temp state folder of
 * their own and stopped by PID in afterAll (and killed if the process exits first), the
 * harness's loopback sshd as the physical host, and the CLI.
 *
 * With the lab network (lab/guest-network.ts), guests booted with `onNetwork` get a second NIC on
 * its bridge, and `networkHost` starts a physical host of its own: a known-truth sshd in a network
 * namespace (reached from here on its management veth) joined to the same bridge. The namespaces
 * are named by tests/harness/truth/owner.ts, so a crashed run's are removed by the next.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildImage, startGuest, stopLibvirtd, type BuildResult, type Guest, type StartGuestOptions } from '../../../lab/driver'
import { createLabNetwork, type LabMember, type LabNetwork } from '../../../lab/guest-network'
import { CLI } from '../../harness/paths'
import { startSshd, type SshdServer, type SshdOptions } from '../../harness/sshd'
import { startLimitedSshd, type LimitedTarget } from '../../harness/truth/limited-sshd'
import { ownedName } from '../../harness/truth/owner'

/** Time for the image build (debootstrap about 95 s, more on a busy machine or when another process builds it). */
export const BUILD_TIMEOUT_MS = 600_000
/** Time for guests to boot under TCG while other tests run. */
export const BOOT_TIMEOUT_MS = 420_000
/**
 * The management link of a network host (how VirtBench logs in to it): a veth from this machine
 * with a tc limit far above anything measured here; measured traffic uses the lab network instead.
 */
const MANAGEMENT_BITS_PER_SECOND = 10e9

export interface LabGuestSpec extends Omit<StartGuestOptions, 'nic'> {
  /** A second NIC on the lab network (its member is named after the guest). */
  onNetwork?: boolean
}

/** A physical host on the lab network. */
export interface NetworkHost {
  name: string
  sshd: LimitedTarget
  member: LabMember
}

export interface LabContext {
  image: BuildResult
  /** Guests' folders and the lab libvirtd of this test file. */
  stateDir: string
  /** Scratch: run folders, presets, the CLI's data dir. */
  dir: string
  dataDir: string
  guests: Guest[]
  hosts: SshdServer[]
  /** Boots the guests at once; one Guest per spec, in order. */
  boot<T extends LabGuestSpec[]>(specs: [...T]): Promise<{ [K in keyof T]: Guest }>
  /** The harness sshd playing the physical host; the lab key logs in to it too. */
  physicalHost(options?: SshdOptions): Promise<SshdServer>
  /** The lab network of this test file (made on first use). */
  network(): Promise<LabNetwork>
  /** A physical host on the lab network (the lab key logs in to it). */
  networkHost(name: string): Promise<NetworkHost>
  stop(): Promise<void>
}

export async function openLab(label: string): Promise<LabContext> {
  const image = await buildImage()
  // a short path: the lab libvirtd's socket lives in it (UNIX socket paths are limited)
  const stateDir = mkdtempSync(path.join('/tmp', `vbl-${label.slice(0, 6)}-`))
  const dir = mkdtempSync(path.join(os.tmpdir(), `vb-lab-${label}-`))
  const dataDir = path.join(dir, 'data')
  mkdirSync(dataDir)
  const guests: Guest[] = []
  const hosts: SshdServer[] = []
  const networkHosts: LimitedTarget[] = []
  let labNetwork: Promise<LabNetwork> | undefined
  const network = (): Promise<LabNetwork> => (labNetwork ??= createLabNetwork({ namespace: ownedName() }))
  return {
    image,
    stateDir,
    dir,
    dataDir,
    guests,
    hosts,
    boot: async (specs) => {
      const net = specs.some((s) => s.onNetwork) ? await network() : undefined
      // members join in the order of the specs (their addresses follow it)
      const nics = specs.map((s) => (s.onNetwork && net ? net.addGuest(s.name) : undefined))
      const settled = await Promise.allSettled(
        specs.map(({ onNetwork: _, ...s }, i) => {
          const nic = nics[i]
          return startGuest({ bootTimeoutSeconds: BOOT_TIMEOUT_MS / 1000 - 30, ...s, ...(nic ? { nic } : {}), stateDir, stopOnExit: true })
        })
      )
      const up = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
      guests.push(...up)
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected')
      if (failed) throw failed.reason
      return up as { [K in keyof typeof specs]: Guest }
    },
    physicalHost: async (options = {}) => {
      const host = await startSshd(options)
      hosts.push(host)
      appendFileSync(path.join(host.dir, 'authorized_keys'), readFileSync(`${image.keyPath}.pub`))
      return host
    },
    network,
    networkHost: async (name) => {
      const net = await network()
      const sshd = await startLimitedSshd({ name, network: { bitsPerSecond: MANAGEMENT_BITS_PER_SECOND } })
      networkHosts.push(sshd)
      appendFileSync(path.join(sshd.server.dir, 'authorized_keys'), readFileSync(`${image.keyPath}.pub`))
      const member = await net.addHost(name, sshd.link!.namespace)
      return { name, sshd, member }
    },
    stop: async () => {
      await Promise.allSettled([...guests.map((g) => g.stop()), ...hosts.map((h) => h.stop()), ...networkHosts.map((h) => h.stop())])
      if (labNetwork) await (await labNetwork.catch(() => undefined))?.stop()
      await stopLibvirtd(stateDir)
      rmSync(stateDir, { recursive: true, force: true })
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `virtbench run ...`; `onStdout` sees the output as it comes (to act in the middle of a run).
 * With `VIRTBENCH_LAB_TRACE` set to a file, the command and each line of its output, with the
 * seconds since it started, are appended to that file (docs/lab.md).
 */
export function virtbenchRun(args: string[], onStdout?: (text: string, child: ChildProcess) => void): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    const trace = process.env.VIRTBENCH_LAB_TRACE
    const started = Date.now()
    if (trace) appendFileSync(trace, `${new Date().toISOString()} virtbench run ${args.join(' ')}\n`)
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString()
      // each chunk with its time since the CLI started, to see where a lab test's minutes go
      if (trace) appendFileSync(trace, c.toString().replace(/^(?=.)/gm, `+${((Date.now() - started) / 1000).toFixed(1)} s  `))
      onStdout?.(stdout, child)
    })
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

export interface SavedTarget {
  name: string
  port: number
  role: 'host' | 'guest'
  /** Where VirtBench logs in (default 127.0.0.1). */
  address?: string
  /** The addresses peers reach it at (a network test's private and EIP paths). */
  addresses?: { private?: string; public?: string }
}

/** Writes the CLI's saved targets (a preset names its targets from these), all logging in as root with the lab key. */
export function saveTargets(lab: LabContext, targets: SavedTarget[]): void {
  const now = new Date().toISOString()
  const saved = targets.map((t, i) => ({
    id: `t${i}`,
    kind: 'ssh',
    name: t.name,
    role: t.role,
    address: t.address ?? '127.0.0.1',
    port: t.port,
    user: 'root',
    auth: { method: 'key', keyPath: lab.image.keyPath, hasPassphrase: false },
    addresses: t.addresses ?? {},
    sudo: 'none',
    labels: {},
    createdAt: now,
    updatedAt: now
  }))
  writeFileSync(path.join(lab.dataDir, 'targets.json'), JSON.stringify({ kind: 'virtbench.targets', version: 1, data: { targets: saved } }))
}

/** Writes a preset file and returns its path. */
export function writePreset(lab: LabContext, name: string, plan: Record<string, unknown>): string {
  const file = path.join(lab.dir, `${name}.json`)
  writeFileSync(file, JSON.stringify({ kind: 'virtbench-preset', version: 1, plan: { name, ...plan } }))
  return file
}
