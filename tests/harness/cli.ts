import { spawn } from 'node:child_process'
import { CLI } from './paths'

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs the built `virtbench` CLI with `args` (and `env` over this process's), and gives its exit status and output. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}
