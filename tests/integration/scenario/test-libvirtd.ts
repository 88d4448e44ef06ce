/**
 * libvirt's test driver behind a libvirtd of our own, so that a domain change lasts from one
 * `virsh` to the next (test:///default in the client forgets it as each virsh exits): the lab's
 * sandboxed libvirtd (lab/scripts/libvirtd-sandbox.sh, lab/libvirt-config.ts: its own /run, /etc
 * and /var in a private mount namespace, nothing of the machine's libvirt touched) serves
 * `test+unix:///default`, and one virsh connection held open for the whole test keeps the test
 * driver's state (libvirtd frees it when its last connection closes). The domain "test" runs with
 * 2 vCPUs and one virtio disk vda; define, shutdown and start act at once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { LIBVIRTD_CONF, QEMU_CONF } from '../../../lab/libvirt-config'

export interface TestLibvirtd {
  /** The URI virsh is given (LIBVIRT_DEFAULT_URI): the test driver through this libvirtd. */
  uri: string
  /** `virsh -c uri ARGS...`, its stdout (throws on a failure). */
  virsh: (...args: string[]) => string
  stop: () => Promise<void>
}

const SANDBOX = path.resolve(__dirname, '../../../lab/scripts/libvirtd-sandbox.sh')

function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

export async function startTestLibvirtd(): Promise<TestLibvirtd> {
  const state = mkdtempSync(path.join(os.tmpdir(), 'vb-test-libvirtd-'))
  try {
    return await start(state)
  } catch (error) {
    rmSync(state, { recursive: true, force: true })
    throw error
  }
}

async function start(state: string): Promise<TestLibvirtd> {
  mkdirSync(path.join(state, 'etc'))
  writeFileSync(path.join(state, 'etc', 'libvirtd.conf'), LIBVIRTD_CONF)
  // the lab's: its qemu driver (unused here) runs as root, needing no libvirt-qemu account
  writeFileSync(path.join(state, 'etc', 'qemu.conf'), QEMU_CONF)
  const daemon = spawn('sh', [SANDBOX, state], { stdio: ['ignore', 'ignore', 'pipe'] })
  let said = ''
  daemon.stderr?.on('data', (chunk: Buffer) => (said = `${said}${chunk.toString()}`.slice(-4000)))
  const socket = path.join(state, 'run', 'libvirt-sock')
  const uri = `test+unix:///default?socket=${socket}`
  const virsh = (...args: string[]): string => {
    const out = spawnSync('virsh', ['-c', uri, ...args], { encoding: 'utf8', timeout: 30_000 })
    if (out.status !== 0) throw new Error(`virsh ${args.join(' ')} failed: ${out.stderr}`)
    return out.stdout
  }
  // the socket appears once libvirtd listens (a deadline in attempts, not in wall-clock time)
  for (let i = 0; i < 600 && !existsSync(socket); i++) {
    if (daemon.exitCode !== null) throw new Error(`libvirtd ended at once: ${said}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  if (!existsSync(socket)) {
    await stopProcess(daemon)
    throw new Error(`libvirtd did not listen on ${socket}: ${said}`)
  }
  // the connection that keeps the test driver's state: an interactive virsh whose stdin stays open
  const holder = spawn('virsh', ['-c', uri], { stdio: ['pipe', 'ignore', 'ignore'] })
  let listed = ''
  for (let i = 0; i < 300 && !/\btest\b/.test(listed); i++) {
    try {
      listed = virsh('list', '--all')
    } catch {
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  if (!/\btest\b/.test(listed)) {
    holder.stdin?.end()
    await Promise.all([stopProcess(holder), stopProcess(daemon)])
    throw new Error(`the test driver of ${uri} does not list domain test: ${said}`)
  }
  return {
    uri,
    virsh,
    stop: async () => {
      holder.stdin?.end()
      await stopProcess(holder)
      await stopProcess(daemon)
      rmSync(state, { recursive: true, force: true })
    }
  }
}
