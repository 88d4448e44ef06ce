/**
 * Test fixture: a REAL OpenSSH agent (`ssh-agent -D -a <socket>`) in a temp folder, loaded with
 * keys by `ssh-add`.
 *
 *   const agent = await startSshAgent({ keyPaths: [server.privateKeyPath] })
 *   ... connect with { method: 'agent', socket: agent.socketPath } ...
 *   await agent.stop()
 *
 * `-D` keeps ssh-agent in the foreground, so the PID we spawned is the agent itself and stop()
 * signals exactly that PID.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

export interface SshAgentOptions {
  /** Private key files to `ssh-add` (unencrypted; mode 0600 as ssh-add demands). */
  keyPaths?: string[]
  /** How long to wait for the socket to appear (default 5 s). */
  startTimeoutMs?: number
}

export interface SshAgent {
  socketPath: string
  pid: number
  /** `ssh-add -l` output: one line per key held. */
  listKeys(): Promise<string>
  /** Terminates the agent by PID, waits for it, removes its folder. Idempotent. */
  stop(): Promise<void>
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

export async function startSshAgent(options: SshAgentOptions = {}): Promise<SshAgent> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-agent-'))
  const socketPath = path.join(dir, 'agent.sock')
  const child: ChildProcess = spawn('ssh-agent', ['-D', '-a', socketPath], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  let exited = false
  const exit = new Promise<void>((resolve) => {
    child.on('exit', () => {
      exited = true
      resolve()
    })
    child.on('error', (err) => {
      stderr += err.message
      exited = true
      resolve()
    })
  })

  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (!exited && child.pid !== undefined) process.kill(child.pid, 'SIGTERM')
      const killTimer = setTimeout(() => {
        if (!exited && child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
      }, 2000)
      await exit
      clearTimeout(killTimer)
      await rm(dir, { recursive: true, force: true })
    })()
    return stopping
  }

  try {
    const deadline = Date.now() + (options.startTimeoutMs ?? 5000)
    while (!existsSync(socketPath)) {
      if (exited) throw new Error(`ssh-agent exited during startup: ${stderr.trim()}`)
      if (Date.now() > deadline) throw new Error(`ssh-agent did not create ${socketPath}: ${stderr.trim()}`)
      await sleep(20)
    }
    const env = { ...process.env, SSH_AUTH_SOCK: socketPath }
    for (const key of options.keyPaths ?? []) {
      const added = await run('ssh-add', [key], env)
      if (added.code !== 0) throw new Error(`ssh-add ${key} failed: ${added.stderr.trim()}`)
    }
    return {
      socketPath,
      pid: child.pid as number,
      listKeys: async () => (await run('ssh-add', ['-l'], env)).stdout,
      stop
    }
  } catch (error) {
    await stop()
    throw error
  }
}
