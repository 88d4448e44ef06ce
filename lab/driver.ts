/**
 * The guest lab: real qemu (or libvirt) guests on this machine, for the tests and for anyone
 * who wants to try VirtBench on one Linux box.
 *
 *   const image = await buildImage()                    // cached; a second call is a no-op
 *   const guest = await startGuest({ name: 'vm1', cache: 'none' })
 *   // ssh://root@127.0.0.1:${guest.sshPort} with --identity ${guest.keyPath}
 *   await guest.stop()
 *
 * The image is cached under labDir() (outside the repository); each guest's disks, serial log
 * and state are in `<stateDir>/<name>/` (default `<labDir>/guests`). Guests are stopped by the
 * PID they were started with (checked against /proc/PID/cmdline first) or `virsh destroy`,
 * never by name patterns.
 */
import { spawn, type SpawnOptions } from 'node:child_process'
import { createHash } from 'node:crypto'
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { chooseMirror, codenameOf, parseAptSourcesFile, type AptSource, type MirrorChoice } from './apt-sources'
import {
  domainName,
  domainXml,
  guestDevices,
  qemuArgv,
  resolveGuestSpec,
  type Accelerator,
  type GuestFiles,
  type GuestNic,
  type GuestPorts,
  type LabNic,
  type GuestSpec,
  type GuestSpecInput
} from './guest-spec'
import { LIBVIRTD_CONF, QEMU_CONF, libvirtUri } from './libvirt-config'
import { freePort, sshBanner } from './net'
import { sha256Fingerprint } from '../src/main/ssh/host-key'

export { LabUsageError } from './guest-spec'

/** What the guest image holds besides Debian's minimal base. */
export const LAB_PACKAGES = [
  'openssh-server', 'fio', 'iperf3', 'iperf', 'iputils-ping', 'sysbench', 'mbw', 'stress-ng', 'coreutils', 'procps', 'iproute2',
  'util-linux', 'e2fsprogs', 'systemd-sysv', 'udev', 'kmod', 'dbus', 'linux-image-amd64'
] as const

export const QEMU = 'qemu-system-x86_64'
const SCRIPTS = path.join(__dirname, 'scripts')
const BUILD_SCRIPT = path.join(SCRIPTS, 'build-image.sh')
const LIBVIRTD_SCRIPT = path.join(SCRIPTS, 'libvirtd-sandbox.sh')

/** The lab's cache: `$VIRTBENCH_LAB_DIR`, else `$XDG_CACHE_HOME/virtbench-lab` or `~/.cache/virtbench-lab`. */
export function labDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VIRTBENCH_LAB_DIR) return path.resolve(env.VIRTBENCH_LAB_DIR)
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'virtbench-lab')
}

function defaultStateDir(): string {
  return path.join(labDir(), 'guests')
}

// ---------------------------------------------------------------- small process helpers

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

export function run(cmd: string, args: string[], opts: SpawnOptions & { input?: string; timeoutMs?: number } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined
    child.on('error', (err) => {
      clearTimeout(timer)
      resolve({ code: null, stdout, stderr: stderr + err.message })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    // a program that exits without reading its input must not turn the write into an uncaught EPIPE
    child.stdin?.on('error', () => {})
    child.stdin?.end(opts.input ?? '')
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function onPath(program: string): boolean {
  const dirs = (process.env.PATH ?? '/usr/bin:/bin').split(':').concat(['/usr/sbin', '/sbin'])
  return dirs.some((d) => d !== '' && existsSync(path.join(d, program)))
}

function requireProgram(program: string, aptPackage: string): void {
  if (!onPath(program)) throw new Error(`the lab needs ${program}, which is not installed: apt-get install --no-install-recommends ${aptPackage}`)
}

/** The command line of a running process, or undefined when it is gone (or a zombie). */
function cmdlineOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return undefined
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return undefined
  }
}

/** True when `pid` runs and its command line contains every one of `marks` (so a reused PID is never taken for ours). */
export function processMatches(pid: number, marks: readonly string[]): boolean {
  const cmdline = cmdlineOf(pid)
  return cmdline !== undefined && marks.every((m) => cmdline.includes(m))
}

/** SIGTERM to `pid` if it is still ours, SIGKILL after `graceMs`; resolves when it is gone. */
async function stopPid(pid: number, marks: readonly string[], graceMs = 5000): Promise<void> {
  if (!processMatches(pid, marks)) return
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    return
  }
  const deadline = Date.now() + graceMs
  while (Date.now() < deadline) {
    if (cmdlineOf(pid) === undefined) return
    await sleep(50)
  }
  if (processMatches(pid, marks)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone meanwhile
    }
  }
  while (cmdlineOf(pid) !== undefined) await sleep(20)
}

/** Processes to kill (if still ours) when this Node process exits: guests and libvirtd a test started. */
const exitKills = new Map<number, string[]>()
let exitHookInstalled = false

function killOnExit(pid: number, marks: string[]): void {
  exitKills.set(pid, marks)
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const [p, m] of exitKills) {
      if (processMatches(p, m)) {
        try {
          process.kill(p, 'SIGKILL')
        } catch {
          // gone
        }
      }
    }
  })
}

function tail(text: string, lines: number): string {
  return text.split('\n').slice(-lines).join('\n')
}

function readTail(file: string, lines = 40): string {
  try {
    return tail(readFileSync(file, 'utf8').replace(/\r/g, ''), lines)
  } catch {
    return '(no output)'
  }
}

// ---------------------------------------------------------------- the image

export interface LabImage {
  dir: string
  key: string
  rootDisk: string
  kernel: string
  initrd: string
  dataTemplate: string
  keyPath: string
  /** The guests' SSH host key (`ssh-ed25519 AAAA...`), made when the image was built. */
  hostKeyFile: string
  kernelRelease: string
}

/** Every `deb` source of apt's configuration: sources.list, sources.list.d/*.list and *.sources. */
export function readAptSources(etcApt = '/etc/apt'): AptSource[] {
  const files: string[] = []
  if (existsSync(path.join(etcApt, 'sources.list'))) files.push(path.join(etcApt, 'sources.list'))
  const partsDir = path.join(etcApt, 'sources.list.d')
  if (existsSync(partsDir)) {
    for (const f of readdirSync(partsDir).sort()) {
      if (f.endsWith('.list') || f.endsWith('.sources')) files.push(path.join(partsDir, f))
    }
  }
  return files.flatMap((f) => parseAptSourcesFile(f, readFileSync(f, 'utf8')))
}

/** The suite the guest gets: this machine's Debian release, else bookworm. */
export function guestSuite(): string {
  try {
    return codenameOf(readFileSync('/etc/os-release', 'utf8')) ?? 'bookworm'
  } catch {
    return 'bookworm'
  }
}

/** The mirror to debootstrap from: `$VIRTBENCH_LAB_MIRROR`, else apt's own. */
export function labMirror(suite = guestSuite()): MirrorChoice {
  const override = process.env.VIRTBENCH_LAB_MIRROR
  if (override) return { uri: override, suite, origin: 'VIRTBENCH_LAB_MIRROR' }
  const choice = chooseMirror(readAptSources(), suite)
  if ('error' in choice) throw new Error(`cannot build the lab image: ${choice.error}`)
  return choice
}

/** `ssh-ed25519 SHA256:...` of the image's host key, as `ssh-keygen -lf` and `virtbench run` print it. */
export function hostKeyFingerprint(image: Pick<LabImage, 'hostKeyFile'>): string {
  const [type, blob] = readFileSync(image.hostKeyFile, 'utf8').trim().split(/\s+/)
  if (!type || !blob) throw new Error(`${image.hostKeyFile} holds no host key: build the image again (remove its folder, then npm run lab -- build)`)
  return `${type} ${sha256Fingerprint(Buffer.from(blob, 'base64'))}`
}

/** The cache key: a change of the build script, the package list or the suite builds a new image. */
export function imageKey(scriptText: string, packages: readonly string[], suite: string): string {
  return createHash('sha256').update(JSON.stringify({ scriptText, packages: [...packages].sort(), suite, arch: 'x86_64' })).digest('hex').slice(0, 16)
}

function imageAt(dir: string, key: string): LabImage {
  return {
    dir,
    key,
    rootDisk: path.join(dir, 'root.img'),
    kernel: path.join(dir, 'vmlinuz'),
    initrd: path.join(dir, 'initrd.img'),
    dataTemplate: path.join(dir, 'data.qcow2'),
    keyPath: path.join(dir, 'id_ed25519'),
    hostKeyFile: path.join(dir, 'host_key.pub'),
    kernelRelease: existsSync(path.join(dir, 'kernel-release')) ? readFileSync(path.join(dir, 'kernel-release'), 'utf8').trim() : ''
  }
}

function currentImageDir(): { dir: string; key: string; suite: string } {
  const suite = guestSuite()
  const key = imageKey(readFileSync(BUILD_SCRIPT, 'utf8'), LAB_PACKAGES, suite)
  return { dir: path.join(labDir(), 'images', key), key, suite }
}

/** The built image, or undefined when `build` has not run (for this script version and package list). */
export function findImage(): LabImage | undefined {
  const { dir, key } = currentImageDir()
  return existsSync(path.join(dir, 'root.img')) ? imageAt(dir, key) : undefined
}

export interface BuildResult extends LabImage {
  /** False when the image was already there (the build was a no-op). */
  built: boolean
  seconds: number
}

/** Takes `lockFile` (O_EXCL, holding our PID); waits while a live process holds it; breaks a dead one's. */
async function withLock<T>(lockFile: string, onWait: () => void, body: () => Promise<T>): Promise<T> {
  let told = false
  for (;;) {
    try {
      closeSync(openSync(lockFile, 'wx'))
      writeFileSync(lockFile, String(process.pid))
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = Number(readFileSync(lockFile, 'utf8').trim())
      const fresh = Date.now() - statSync(lockFile).mtimeMs < 2000
      if (!fresh && (!Number.isInteger(holder) || holder <= 0 || cmdlineOf(holder) === undefined)) {
        await rm(lockFile, { force: true })
        continue
      }
      if (!told) onWait()
      told = true
      await sleep(1000)
    }
  }
  try {
    return await body()
  } finally {
    await rm(lockFile, { force: true })
  }
}

/**
 * Builds the guest image when it is not cached yet; otherwise returns it at once (`built: false`).
 * Several processes may call it at the same time: one builds, the others wait for it.
 */
export async function buildImage(opts: { log?: (line: string) => void } = {}): Promise<BuildResult> {
  const log = opts.log ?? (() => {})
  const started = Date.now()
  const { dir, key, suite } = currentImageDir()
  const done = (built: boolean): BuildResult => ({ ...imageAt(dir, key), built, seconds: (Date.now() - started) / 1000 })
  if (existsSync(path.join(dir, 'root.img'))) return done(false)

  if (process.getuid?.() !== 0) throw new Error('building the lab image needs root (debootstrap works in a chroot); run it as root or with sudo')
  requireProgram('debootstrap', 'debootstrap')
  requireProgram('mkfs.ext4', 'e2fsprogs')
  requireProgram('qemu-img', 'qemu-utils')
  requireProgram('ssh-keygen', 'openssh-client')
  requireProgram('chroot', 'coreutils')
  const mirror = labMirror(suite)
  await mkdir(path.dirname(dir), { recursive: true })
  return withLock(`${dir}.lock`, () => log('another process is building the image; waiting for it'), async () => {
    if (existsSync(path.join(dir, 'root.img'))) return done(false)
    log(`building the lab image ${key} (Debian ${suite} from ${mirror.uri}, read from ${mirror.origin})`)
    const buildLog = `${dir}.build.log`
    const args = [BUILD_SCRIPT, dir, mirror.uri, suite, LAB_PACKAGES.join(','), mirror.keyring ?? '']
    const output: string[] = []
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn('bash', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', LC_ALL: 'C' } })
      const take = (chunk: Buffer): void => {
        const text = chunk.toString()
        output.push(text)
        for (const line of text.split('\n')) if (line.startsWith('[lab build')) log(line)
      }
      child.stdout.on('data', take)
      child.stderr.on('data', take)
      child.on('error', () => resolve(null))
      child.on('close', resolve)
    })
    await writeFile(buildLog, output.join(''))
    if (code !== 0 || !existsSync(path.join(dir, 'root.img'))) {
      await rm(`${dir}.partial`, { recursive: true, force: true })
      throw new Error(`building the lab image failed (exit ${code}); the whole log is ${buildLog}. Its end:\n${tail(output.join(''), 25)}`)
    }
    return done(true)
  })
}

// ---------------------------------------------------------------- acceleration

let kvmAnswer: Promise<boolean> | undefined

/** This boot of this machine (the KVM answer holds until a reboot). */
function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    return 'unknown'
  }
}

/**
 * Whether KVM really runs a guest here: /dev/kvm opens, and the image's kernel, booted under KVM
 * with the CPU model the guests get, prints its first line within 15 s (a nested /dev/kvm that
 * is present but cannot run a guest hangs or aborts instead). The answer is kept in the lab
 * directory for this boot of the machine.
 */
export function kvmUsable(kernel: string): Promise<boolean> {
  kvmAnswer ??= (async () => {
    try {
      closeSync(openSync('/dev/kvm', 'r+'))
    } catch {
      return false
    }
    const cacheFile = path.join(labDir(), 'kvm-probe.json')
    const id = bootId()
    try {
      const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as { bootId: string; kvm: boolean }
      if (cached.bootId === id && typeof cached.kvm === 'boolean') return cached.kvm
    } catch {
      // not probed yet in this boot
    }
    const probeDir = await mkdtemp(path.join(os.tmpdir(), 'vb-lab-kvm-'))
    const serial = path.join(probeDir, 'serial.log')
    let kvm = false
    try {
      const child = spawn(QEMU, ['-accel', 'kvm', '-cpu', 'host', '-machine', 'pc', '-m', '128', '-nodefaults', '-display', 'none', '-no-reboot',
        '-serial', `file:${serial}`, '-kernel', kernel, '-append', 'console=ttyS0 earlyprintk=ttyS0 panic=-1'], { stdio: 'ignore' })
      let exited = false
      child.on('exit', () => (exited = true))
      child.on('error', () => (exited = true))
      const deadline = Date.now() + 15_000
      while (!exited && Date.now() < deadline) {
        if (existsSync(serial) && readFileSync(serial, 'utf8').includes('Linux version')) {
          kvm = true
          break
        }
        await sleep(200)
      }
      if (!exited) child.kill('SIGKILL')
      if (!kvm && existsSync(serial)) kvm = readFileSync(serial, 'utf8').includes('Linux version')
    } finally {
      await rm(probeDir, { recursive: true, force: true })
    }
    await mkdir(labDir(), { recursive: true })
    await writeFile(cacheFile, JSON.stringify({ bootId: id, kvm }))
    return kvm
  })()
  return kvmAnswer
}

/** `$VIRTBENCH_LAB_ACCEL` (kvm or tcg) when set, else KVM where it works, else TCG. */
export async function chooseAccelerator(kernel: string): Promise<Accelerator> {
  const forced = process.env.VIRTBENCH_LAB_ACCEL
  if (forced === 'kvm' || forced === 'tcg') return forced
  if (forced) throw new Error(`VIRTBENCH_LAB_ACCEL must be kvm or tcg, not ${JSON.stringify(forced)}`)
  return (await kvmUsable(kernel)) ? 'kvm' : 'tcg'
}

// ---------------------------------------------------------------- the lab's libvirtd

export interface Libvirtd {
  dir: string
  uri: string
  socket: string
  pid: number
}

function libvirtdOf(stateDir: string): { dir: string; socket: string; pidFile: string; log: string } {
  const dir = path.join(stateDir, 'libvirt')
  return { dir, socket: path.join(dir, 'run', 'libvirt-sock'), pidFile: path.join(dir, 'daemon.pid'), log: path.join(dir, 'libvirtd.log') }
}

/** The URI of the lab libvirtd of `stateDir` (whether it runs or not), for LIBVIRT_DEFAULT_URI. */
export function labLibvirtUri(stateDir = defaultStateDir()): string {
  return libvirtUri(libvirtdOf(stateDir).socket)
}

/** The lab libvirtd of `stateDir` when it runs. */
export function runningLibvirtd(stateDir = defaultStateDir()): Libvirtd | undefined {
  const { dir, socket, pidFile } = libvirtdOf(stateDir)
  if (!existsSync(pidFile)) return undefined
  const pid = Number(readFileSync(pidFile, 'utf8').trim())
  if (!Number.isInteger(pid) || !processMatches(pid, ['libvirtd', dir])) return undefined
  return { dir, uri: libvirtUri(socket), socket, pid }
}

export async function virsh(uri: string, args: string[], timeoutMs = 60_000): Promise<Ran> {
  return run('virsh', ['-q', '-c', uri, ...args], { timeoutMs, env: { ...process.env, LC_ALL: 'C' } })
}

/**
 * Starts the lab's libvirtd (its own process, in a private mount namespace) unless it runs
 * already. With `stopOnExit` it is killed when this Node process exits (tests).
 */
export async function ensureLibvirtd(stateDir = defaultStateDir(), opts: { stopOnExit?: boolean } = {}): Promise<Libvirtd> {
  const running = runningLibvirtd(stateDir)
  if (running) return running
  if (process.getuid?.() !== 0) throw new Error("the lab's libvirtd runs as root (qemu user root, no security driver, in a private mount namespace): run as root")
  requireProgram('libvirtd', 'libvirt-daemon libvirt-daemon-driver-qemu')
  requireProgram('virsh', 'libvirt-clients')
  requireProgram('unshare', 'util-linux')
  const { dir, socket, pidFile, log } = libvirtdOf(stateDir)
  if (socket.length > 100) throw new Error(`the libvirt socket path ${socket} is too long for a UNIX socket: use a shorter lab directory`)
  await mkdir(path.join(dir, 'etc'), { recursive: true })
  await writeFile(path.join(dir, 'etc', 'libvirtd.conf'), LIBVIRTD_CONF)
  await writeFile(path.join(dir, 'etc', 'qemu.conf'), QEMU_CONF)
  await rm(socket, { force: true })
  const out = openSync(log, 'w')
  const child = spawn('sh', [LIBVIRTD_SCRIPT, dir], { detached: true, stdio: ['ignore', out, out] })
  closeSync(out)
  child.unref()
  const pid = child.pid
  if (pid === undefined) throw new Error(`libvirtd did not start: ${readTail(log)}`)
  await writeFile(pidFile, String(pid))
  if (opts.stopOnExit) killOnExit(pid, ['libvirtd', dir])
  const uri = libvirtUri(socket)
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (cmdlineOf(pid) === undefined) throw new Error(`the lab's libvirtd exited at start. Its log (${log}):\n${readTail(log)}`)
    if (existsSync(socket) && (await virsh(uri, ['version'], 10_000)).code === 0) return { dir, uri, socket, pid }
    await sleep(250)
  }
  await stopPid(pid, ['libvirtd', dir])
  throw new Error(`the lab's libvirtd did not answer on ${socket} within 60 s. Its log (${log}):\n${readTail(log)}`)
}

/** Stops the lab's libvirtd of `stateDir` (after destroying the lab domains it still runs). */
export async function stopLibvirtd(stateDir = defaultStateDir()): Promise<void> {
  const daemon = runningLibvirtd(stateDir)
  if (!daemon) return
  const list = await virsh(daemon.uri, ['list', '--name'], 15_000)
  for (const name of list.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('vb-lab-'))) {
    await virsh(daemon.uri, ['destroy', name], 30_000)
  }
  await stopPid(daemon.pid, ['libvirtd', daemon.dir])
  exitKills.delete(daemon.pid)
  await rm(libvirtdOf(stateDir).pidFile, { force: true })
}

// ---------------------------------------------------------------- guests

/** What `<stateDir>/<name>/guest.json` records, so `down` and `status` work from another process. */
export interface GuestRecord {
  name: string
  spec: GuestSpec
  accel: Accelerator
  sshPort: number
  iperfPorts: number[]
  keyPath: string
  /** known_hosts with the guest's host key at its forwarded port: logins check it. */
  knownHostsFile: string
  user: 'root'
  /** The qemu process (under libvirt too, read from libvirt's pid file). */
  pid: number
  /** The libvirt domain, for a guest run by libvirt. */
  domain?: string
  libvirtUri?: string
  dir: string
  serialLog: string
  /** Linux device names of the root disk, the raw data disk and the ext4 data disk in the guest. */
  devices: { root: string; raw: string; data: string }
  startedAt: string
  bootSeconds?: number
  /** The NIC on the lab network (lab/guest-network.ts), and its name in the guest. */
  labNic?: LabNic & { guestInterface: string }
}

export interface Guest extends GuestRecord {
  /** Runs a shell command in the guest as root over SSH. */
  exec(command: string, timeoutMs?: number): Promise<Ran>
  /** The `virtbench run` target URL of this guest. */
  url: string
  /** Stops the guest (qemu by PID, or virsh destroy) and removes its disks. Idempotent. */
  stop(): Promise<void>
  /** Kills qemu at once with SIGKILL, as a crash of the host side would (for failure tests). */
  kill(): Promise<void>
}

export interface StartGuestOptions extends GuestSpecInput {
  /** Where guests' folders are (default `<labDir>/guests`). */
  stateDir?: string
  /** Seconds to wait for SSH (default 240 under TCG, 90 with KVM). */
  bootTimeoutSeconds?: number
  accel?: Accelerator
  /** Kill the guest when this Node process exits (tests); the CLI's guests outlive it. */
  stopOnExit?: boolean
  /** A second NIC on the lab network (lab/guest-network.ts addGuest): attached once qemu runs, configured once SSH answers. */
  nic?: GuestNic
  log?: (line: string) => void
}

export function sshArgs(record: Pick<GuestRecord, 'keyPath' | 'sshPort' | 'knownHostsFile'>, extra: string[] = []): string[] {
  return [
    '-i', record.keyPath,
    '-p', String(record.sshPort),
    '-o', 'StrictHostKeyChecking=yes',
    '-o', `UserKnownHostsFile=${record.knownHostsFile}`,
    '-o', 'GlobalKnownHostsFile=/dev/null',
    '-o', 'LogLevel=ERROR',
    '-o', 'BatchMode=yes',
    '-o', 'ConnectTimeout=10',
    '-o', 'IdentitiesOnly=yes',
    ...extra,
    'root@127.0.0.1'
  ]
}

function guestExec(record: GuestRecord, command: string, timeoutMs = 60_000): Promise<Ran> {
  return run('ssh', [...sshArgs(record), command], { timeoutMs })
}

function qemuMarks(record: Pick<GuestRecord, 'dir'>): string[] {
  // the guest's own folder is on qemu's command line (its disks): a reused PID cannot match
  return ['qemu-system', record.dir]
}

function recordPath(dir: string): string {
  return path.join(dir, 'guest.json')
}

export function readGuestRecord(name: string, stateDir = defaultStateDir()): GuestRecord | undefined {
  const file = recordPath(path.join(stateDir, name))
  if (!existsSync(file)) return undefined
  return JSON.parse(readFileSync(file, 'utf8')) as GuestRecord
}

export function guestRunning(record: GuestRecord): boolean {
  return processMatches(record.pid, qemuMarks(record))
}

/** Stops a guest by its record: `virsh destroy` for a libvirt domain, then its qemu PID; removes its folder. */
export async function stopGuestRecord(record: GuestRecord, opts: { keepFiles?: boolean } = {}): Promise<void> {
  if (record.domain && record.libvirtUri) await virsh(record.libvirtUri, ['destroy', record.domain], 30_000)
  await stopPid(record.pid, qemuMarks(record))
  exitKills.delete(record.pid)
  if (!opts.keepFiles) await rm(record.dir, { recursive: true, force: true })
}

/** Stops the guest called `name` of `stateDir`; false when there is no such guest. */
export async function stopGuest(name: string, stateDir = defaultStateDir()): Promise<boolean> {
  const record = readGuestRecord(name, stateDir)
  if (!record) return false
  await stopGuestRecord(record)
  // the lab's libvirtd goes with its last guest
  if (record.domain && !listGuests(stateDir).some((g) => g.domain && guestRunning(g))) await stopLibvirtd(stateDir)
  return true
}

export function listGuests(stateDir = defaultStateDir()): GuestRecord[] {
  if (!existsSync(stateDir)) return []
  return readdirSync(stateDir)
    .filter((n) => n !== 'libvirt')
    .map((n) => readGuestRecord(n, stateDir))
    .filter((r): r is GuestRecord => r !== undefined)
}

async function prepareDisks(image: LabImage, files: GuestFiles): Promise<void> {
  const overlay = await run('qemu-img', ['create', '-q', '-f', 'qcow2', '-b', image.rootDisk, '-F', 'raw', files.rootOverlay])
  if (overlay.code !== 0) throw new Error(`qemu-img could not make the root overlay ${files.rootOverlay}: ${overlay.stderr.trim()}`)
  await writeFile(files.rawDisk, '')
  await truncate(files.rawDisk, 256 * 1024 * 1024)
  await copyFile(image.dataTemplate, files.dataDisk)
}

async function launchPlain(
  spec: GuestSpec,
  files: GuestFiles,
  ports: GuestPorts,
  accel: Accelerator,
  nic: LabNic | undefined
): Promise<{ pid: number } | { error: string; portClash: boolean }> {
  const argv = qemuArgv(spec, files, ports, accel, nic)
  await writeFile(path.join(path.dirname(files.serialLog), 'qemu-argv.json'), JSON.stringify([QEMU, ...argv], null, 1))
  const started = await run(QEMU, argv, { timeoutMs: 60_000 })
  if (started.code !== 0) {
    const error = started.stderr.trim() || `qemu exited with status ${started.code}`
    return { error, portClash: /host forwarding rule|Address already in use/i.test(error) }
  }
  const pid = Number(readFileSync(files.pidFile, 'utf8').trim())
  if (!Number.isInteger(pid) || pid <= 0) return { error: `qemu's pid file ${files.pidFile} holds no PID`, portClash: false }
  return { pid }
}

async function launchLibvirt(
  spec: GuestSpec,
  files: GuestFiles,
  ports: GuestPorts,
  accel: Accelerator,
  stateDir: string,
  stopOnExit: boolean,
  nic: LabNic | undefined
): Promise<{ pid: number; domain: string; uri: string } | { error: string; portClash: boolean }> {
  const daemon = await ensureLibvirtd(stateDir, { stopOnExit })
  const domain = domainName(spec.name)
  const xmlFile = path.join(path.dirname(files.serialLog), 'domain.xml')
  await writeFile(xmlFile, domainXml(spec, files, ports, accel, `/usr/bin/${QEMU}`, nic))
  const created = await virsh(daemon.uri, ['create', xmlFile], 120_000)
  if (created.code !== 0) {
    const qemuLog = readTail(path.join(daemon.dir, 'log', 'qemu', `${domain}.log`), 15)
    const error = `virsh create failed: ${created.stderr.trim()}\nqemu's log:\n${qemuLog}`
    return { error, portClash: /host forwarding rule|Address already in use/i.test(error) }
  }
  const pidFile = path.join(daemon.dir, 'run', 'qemu', `${domain}.pid`)
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN
  if (!Number.isInteger(pid) || pid <= 0) {
    await virsh(daemon.uri, ['destroy', domain])
    return { error: `libvirt started ${domain} but its pid file ${pidFile} holds no PID`, portClash: false }
  }
  return { pid, domain, uri: daemon.uri }
}

function asGuest(record: GuestRecord): Guest {
  let stopping: Promise<void> | undefined
  return {
    ...record,
    url: `ssh://root@127.0.0.1:${record.sshPort}`,
    exec: (command, timeoutMs) => guestExec(record, command, timeoutMs),
    stop: () => (stopping ??= stopGuestRecord(record)),
    kill: async () => {
      if (!guestRunning(record)) return
      process.kill(record.pid, 'SIGKILL')
      while (cmdlineOf(record.pid) !== undefined) await sleep(20)
    }
  }
}

/**
 * Boots a guest and waits until root can log in over SSH. A guest that does not answer within
 * its timeout (or whose qemu exits) is stopped, and the error quotes the end of its serial console.
 */
export async function startGuest(opts: StartGuestOptions): Promise<Guest> {
  const spec = resolveGuestSpec(opts)
  const log = opts.log ?? (() => {})
  const stateDir = opts.stateDir ?? defaultStateDir()
  requireProgram(QEMU, 'qemu-system-x86')
  requireProgram('qemu-img', 'qemu-utils')
  requireProgram('ssh', 'openssh-client')
  const image = findImage()
  if (!image) throw new Error('the lab image is not built yet: run `npm run lab -- build` first')
  const dir = path.join(stateDir, spec.name)
  const previous = readGuestRecord(spec.name, stateDir)
  if (previous && guestRunning(previous)) {
    throw new Error(`a lab guest called ${spec.name} runs already (PID ${previous.pid}, SSH port ${previous.sshPort}): stop it with \`npm run lab -- down ${spec.name}\``)
  }
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const files: GuestFiles = {
    kernel: image.kernel,
    initrd: image.initrd,
    rootOverlay: path.join(dir, 'root.qcow2'),
    rawDisk: path.join(dir, 'raw.img'),
    dataDisk: path.join(dir, 'data.qcow2'),
    serialLog: path.join(dir, 'serial.log'),
    pidFile: path.join(dir, 'qemu.pid')
  }
  await prepareDisks(image, files)
  const accel = opts.accel ?? (await chooseAccelerator(image.kernel))
  const started = Date.now()

  let launched: { pid: number; ports: GuestPorts; domain?: string; uri?: string } | undefined
  for (let attempt = 1; !launched; attempt++) {
    const ports: GuestPorts = { ssh: await freePort(), iperf: [await freePort(), await freePort()] }
    await rm(files.serialLog, { force: true })
    const nic = opts.nic && { tap: opts.nic.tap, mac: opts.nic.mac }
    const result = spec.libvirt
      ? await launchLibvirt(spec, files, ports, accel, stateDir, opts.stopOnExit ?? false, nic)
      : await launchPlain(spec, files, ports, accel, nic)
    if ('pid' in result) {
      launched = { ...result, ports }
    } else if (!result.portClash || attempt >= 3) {
      await rm(dir, { recursive: true, force: true })
      throw new Error(`lab guest ${spec.name} did not start: ${result.error}`)
    }
  }

  const record: GuestRecord = {
    name: spec.name,
    spec,
    accel,
    sshPort: launched.ports.ssh,
    iperfPorts: launched.ports.iperf,
    keyPath: image.keyPath,
    knownHostsFile: path.join(dir, 'known_hosts'),
    user: 'root',
    pid: launched.pid,
    ...(launched.domain ? { domain: launched.domain, libvirtUri: launched.uri } : {}),
    dir,
    serialLog: files.serialLog,
    devices: guestDevices(spec.bus),
    startedAt: new Date(started).toISOString()
  }
  await writeFile(record.knownHostsFile, `[127.0.0.1]:${record.sshPort} ${readFileSync(image.hostKeyFile, 'utf8').trim()}\n`)
  await writeFile(recordPath(dir), JSON.stringify(record, null, 2))
  if (opts.stopOnExit) killOnExit(record.pid, qemuMarks(record))
  if (opts.nic) {
    try {
      await opts.nic.attach()
    } catch (err) {
      await stopGuestRecord(record)
      throw new Error(`lab guest ${spec.name}: its NIC on the lab network could not be attached (${err instanceof Error ? err.message : String(err)}); it was stopped`, { cause: err })
    }
  }
  log(`${spec.name}: qemu PID ${record.pid} (${accel}${record.domain ? `, libvirt domain ${record.domain}` : ''}), waiting for SSH on 127.0.0.1:${record.sshPort}`)

  const timeoutS = opts.bootTimeoutSeconds ?? (accel === 'kvm' ? 90 : 240)
  const deadline = started + timeoutS * 1000
  let why = `did not answer SSH on 127.0.0.1:${record.sshPort} within ${timeoutS} s`
  let ready = false
  while (Date.now() < deadline) {
    if (!guestRunning(record)) {
      why = 'qemu exited while the guest was booting'
      break
    }
    if (await sshBanner('127.0.0.1', record.sshPort, 3000)) {
      const probe = await guestExec(record, 'true', 30_000)
      if (probe.code === 0) {
        ready = true
        break
      }
      why = `answered SSH but root's key login failed: ${probe.stderr.trim()}`
    }
    await sleep(1000)
  }
  if (!ready) {
    const serial = readTail(files.serialLog, 40)
    await stopGuestRecord(record)
    throw new Error(`lab guest ${spec.name} ${why}; it was stopped. The end of its serial console:\n${serial}`)
  }
  if (opts.nic) {
    const setup = await guestExec(record, opts.nic.guestSetup, 30_000)
    if (setup.code !== 0) {
      await stopGuestRecord(record)
      throw new Error(`lab guest ${spec.name}: configuring its NIC on the lab network failed (exit ${setup.code}): ${setup.stderr.trim()}; it was stopped`)
    }
    record.labNic = { tap: opts.nic.tap, mac: opts.nic.mac, guestInterface: setup.stdout.trim() }
  }
  record.bootSeconds = (Date.now() - started) / 1000
  await writeFile(recordPath(dir), JSON.stringify(record, null, 2))
  log(`${spec.name}: up in ${record.bootSeconds.toFixed(1)} s`)
  return asGuest(record)
}

/** A guest of `stateDir` that runs, as a handle (for `lab ssh` and tests that reattach). */
export function guestHandle(name: string, stateDir = defaultStateDir()): Guest | undefined {
  const record = readGuestRecord(name, stateDir)
  return record && guestRunning(record) ? asGuest(record) : undefined
}

export interface LabStatus {
  dir: string
  image: LabImage | undefined
  otherImages: string[]
  /** undefined until the image is built (the probe boots its kernel). */
  accel: Accelerator | undefined
  guests: (GuestRecord & { running: boolean })[]
  libvirtd: Libvirtd | undefined
}

export async function labStatus(stateDir = defaultStateDir()): Promise<LabStatus> {
  const image = findImage()
  const imagesDir = path.join(labDir(), 'images')
  const otherImages = existsSync(imagesDir)
    ? readdirSync(imagesDir).filter((n) => /^[0-9a-f]{16}$/.test(n) && n !== image?.key).map((n) => path.join(imagesDir, n))
    : []
  return {
    dir: labDir(),
    image,
    otherImages,
    accel: image ? await chooseAccelerator(image.kernel) : undefined,
    guests: listGuests(stateDir).map((g) => ({ ...g, running: guestRunning(g) })),
    libvirtd: runningLibvirtd(stateDir)
  }
}
