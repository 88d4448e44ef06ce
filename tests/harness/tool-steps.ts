import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { promisify } from 'node:util'
import type { RemoteStep, StepOutput } from '../../src/main/tools/types'

const execFileAsync = promisify(execFile)

/**
 * Runs a plan's background server step from its argv on this machine and resolves once its output
 * matches the step's `readyPattern`. The caller keeps the returned process in `started` and stops
 * it with `stopServers` (by PID, TERM) when the test ends.
 */
export function startServerStep(step: RemoteStep, started: ChildProcess[], env: NodeJS.ProcessEnv = process.env): Promise<ChildProcess> {
  const ready = step.readyPattern
  if (!ready) throw new Error(`step ${step.id} has no readyPattern`)
  const [command, ...args] = step.argv!
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'], env })
  started.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${command} server did not print its ready line: ${output}`)), 10_000)
    const check = (chunk: Buffer) => {
      output += chunk.toString()
      if (ready.test(output)) {
        clearTimeout(timer)
        resolve(child)
      }
    }
    child.stdout!.on('data', check)
    child.stderr!.on('data', check)
    child.once('exit', (code) => reject(new Error(`the ${command} server exited (${code}) before it was ready: ${output}`)))
  })
}

/** Stops the servers still running, each by its PID, and waits for them. */
export async function stopServers(started: ChildProcess[]): Promise<void> {
  for (const server of started.splice(0)) {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.kill('SIGTERM')
      await exited
    }
  }
}

/** Runs a measured step: its script through sh (as the engine does), or its argv directly. */
export async function runStep(step: RemoteStep, how: 'shell' | 'argv' = 'shell'): Promise<StepOutput> {
  const [command, ...args] = how === 'shell' ? ['sh', '-c', step.script] : step.argv!
  try {
    const { stdout, stderr } = await execFileAsync(command!, args, { timeout: 30_000, maxBuffer: 16 * 2 ** 20 })
    return { stdout, stderr, exitCode: 0 }
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number; signal?: string }
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', exitCode: typeof e.code === 'number' ? e.code : null, signal: e.signal ?? null }
  }
}
