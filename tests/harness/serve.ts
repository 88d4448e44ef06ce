import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CLI, OUT } from './paths'

export interface ServeProcess {
  url: string
  origin: string
  token: string
  port: number
  dataDir: string
  child: ChildProcessWithoutNullStreams
  stderr: () => string
  stop: () => Promise<number | null>
}

/**
 * Starts the built `virtbench serve` as its own process with a throwaway data folder and waits for
 * the URL it prints. Needs `npm run build` (the `npm test` script builds first).
 */
export async function startServe(extraArgs: string[] = []): Promise<ServeProcess> {
  if (!existsSync(path.join(OUT, 'main', 'cli.js')) || !existsSync(path.join(OUT, 'renderer', 'index.html'))) {
    throw new Error(`The app is not built (${OUT} is incomplete). Run 'npm run build' first; 'npm test' does it for you.`)
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'virtbench-serve-'))
  const child = spawn(process.execPath, [CLI, 'serve', '--data-dir', dataDir, ...extraArgs], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, VIRTBENCH_DATA_DIR: dataDir }
  })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`virtbench serve printed no URL within 15 s. stderr:\n${stderr}`)), 15_000)
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = /^(http:\/\/\S+)\n/m.exec(stdout)
      if (line?.[1]) {
        clearTimeout(timer)
        resolve(line[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`virtbench serve exited with ${code} before printing its URL. stderr:\n${stderr}`))
    })
  })
  const parsed = new URL(url)
  const token = /token=([0-9a-f]+)/.exec(parsed.hash)?.[1] ?? ''
  return {
    url,
    origin: parsed.origin,
    token,
    port: Number(parsed.port),
    dataDir,
    child,
    stderr: () => stderr,
    stop: async () => {
      const exited = new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode)
        else child.once('exit', (code) => resolve(code))
      })
      if (child.exitCode === null) child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      const code = await exited
      clearTimeout(timer)
      rmSync(dataDir, { recursive: true, force: true })
      return code
    }
  }
}
