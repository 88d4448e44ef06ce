/**
 * Running the system commands the known-truth harness needs (ip, tc, losetup, mkfs.ext4, mount):
 * no shell, every argument its own word, and a deadline on every one.
 */
import { spawn } from 'node:child_process'

export interface CommandOutput {
  stdout: string
  stderr: string
}

export interface CommandOptions {
  /** Killed (SIGKILL) and failed after this long; default 30 s. */
  timeoutMs?: number
}

/** `cmd args…` as a person would type it, for messages. */
export function commandLine(cmd: string, args: readonly string[]): string {
  return [cmd, ...args].map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ')
}

/** Runs `cmd args` and resolves with its output when it exits 0; otherwise rejects saying which command failed, how, and what it printed. */
export function runCommand(cmd: string, args: readonly string[], options: CommandOptions = {}): Promise<CommandOutput> {
  const timeoutMs = options.timeoutMs ?? 30_000
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(new Error(`known-truth harness: cannot run \`${commandLine(cmd, args)}\`: ${err.message}`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) {
        resolve({ stdout, stderr })
        return
      }
      const how = timedOut ? `did not finish within ${timeoutMs} ms` : signal ? `was killed by ${signal}` : `exited with ${code}`
      reject(new Error(`known-truth harness: \`${commandLine(cmd, args)}\` ${how}: ${stderr.trim() || stdout.trim() || '(no output)'}`))
    })
  })
}

/** Like runCommand, for clean-up steps that may find nothing to do: resolves false instead of failing. */
export async function tryCommand(cmd: string, args: readonly string[], options: CommandOptions = {}): Promise<boolean> {
  try {
    await runCommand(cmd, args, options)
    return true
  } catch {
    return false
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
