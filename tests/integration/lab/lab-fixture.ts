/**
 * What the lab tests share: the image (built once, cached outside the repository; the first
 * test process builds it, the others wait on its lock), guests booted in a temp state folder of
 * their own and stopped by PID in afterAll (and killed if the process exits first), the
 * harness's loopback sshd as the physical host, and the CLI.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildImage, startGuest, stopLibvirtd, type BuildResult, type Guest, type StartGuestOptions } from '../../../lab/driver'
import { CLI } from '../../harness/paths'
import { startSshd, type SshdServer, type SshdOptions } from '../../harness/sshd'

/** Time for the image build (debootstrap about 95 s, more on a busy machine or when another process builds it). */
export const BUILD_TIMEOUT_MS = 600_000
/** Time for guests to boot under TCG while other tests run. */
export const BOOT_TIMEOUT_MS = 420_000

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
  boot<T extends StartGuestOptions[]>(specs: [...T]): Promise<{ [K in keyof T]: Guest }>
  /** The harness sshd playing the physical host; the lab key logs in to it too. */
  physicalHost(options?: SshdOptions): Promise<SshdServer>
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
  return {
    image,
    stateDir,
    dir,
    dataDir,
    guests,
    hosts,
    boot: async (specs) => {
      const settled = await Promise.allSettled(
        specs.map((s) => startGuest({ bootTimeoutSeconds: BOOT_TIMEOUT_MS / 1000 - 30, ...s, stateDir, stopOnExit: true }))
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
    stop: async () => {
      await Promise.allSettled([...guests.map((g) => g.stop()), ...hosts.map((h) => h.stop())])
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

/** Runs `virtbench run ...`; `onStdout` sees the output as it comes (to act in the middle of a run). */
export function virtbenchRun(args: string[], onStdout?: (text: string, child: ChildProcess) => void): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString()
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
}

/** Writes the CLI's saved targets (a preset names its targets from these), all logging in as root with the lab key. */
export function saveTargets(lab: LabContext, targets: SavedTarget[]): void {
  const now = new Date().toISOString()
  const saved = targets.map((t, i) => ({
    id: `t${i}`,
    kind: 'ssh',
    name: t.name,
    role: t.role,
    address: '127.0.0.1',
    port: t.port,
    user: 'root',
    auth: { method: 'key', keyPath: lab.image.keyPath, hasPassphrase: false },
    addresses: {},
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
