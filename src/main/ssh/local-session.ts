/**
 * LocalSession: "This computer" as a target, with the same interface as SshSession.
 *
 * Commands run through child_process in a new process group (`detached: true`), inside the same
 * wrapper as on SSH targets (remote-command.ts / windows.ts), so env, cwd, sudo, output markers
 * and results behave identically. Cancel and timeout signal the whole group (TERM, then KILL
 * after the grace period); under sudo the kill runs through sudo too. On Windows the process tree
 * is ended with taskkill.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { chmod, copyFile, mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { buildExecResult, PreambleFilter, StreamSink } from './output'
import {
  parseProcessIds,
  posixBody,
  posixInnerScript,
  posixKillScript,
  sendStdin,
  shortCommand,
  stderrMarker,
  stdoutMarker,
  sudoArgv,
  commandStdin,
  validateEnv,
  type ProcessIds
} from './remote-command'
import { resolveSudo, sudoKey } from './sudo'
import {
  SessionError,
  type EnsureScriptsResult,
  type ExecOptions,
  type ExecResult,
  type RemoteCommand,
  type Session,
  type SessionFacts,
  type StdinSource,
  type SudoMode,
  type UploadOptions
} from './types'
import { tracked, watchForStop } from './stop-watch'
import { ensureBundle, readScriptBundle, type EnsuredDir, type ScriptStore } from './upload'
import { encodePowershell, taskkillCommand, windowsScript } from './windows'

export interface LocalSessionOptions {
  /** The name of this computer in messages (default 'this computer'). */
  label?: string
  /** Where script directories go (default `~/.cache/virtbench`, `%LOCALAPPDATA%\virtbench\cache` on Windows). */
  workRoot?: string
  /** Between TERM and KILL when stopping a command (default 2000 ms). */
  killGraceMs?: number
}

const DEFAULT_KILL_GRACE_MS = 2000
const isWindows = process.platform === 'win32'

interface Spawned {
  child: ChildProcess
  processIds: Promise<ProcessIds | undefined>
  /** Settles after the process exited and both streams ended. */
  ended: Promise<{ exitCode: number | null; signal: string | null }>
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export class LocalSession implements Session {
  readonly label: string
  private readonly killGraceMs: number
  private readonly workRootOption: string | undefined
  private readonly nonce = randomBytes(9).toString('base64').replace(/[^A-Za-z0-9]/g, 'x')
  /** close() was called: no new work is accepted. */
  private closed = false
  private closeDone: Promise<void> | undefined
  private readonly running = new Set<() => void>()
  private readonly inFlight = new Set<Promise<unknown>>()
  private readonly sudoModes = new Map<string, Promise<SudoMode>>()
  private readonly ensured = new Map<string, Promise<EnsuredDir>>()
  private readonly ensuredDirs = new Set<string>()

  constructor(opts: LocalSessionOptions = {}) {
    this.label = opts.label ?? 'this computer'
    this.killGraceMs = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS
    this.workRootOption = opts.workRoot
  }

  facts(): Promise<SessionFacts> {
    return Promise.resolve({
      shell: isWindows ? 'windows' : 'posix',
      system: isWindows ? 'Windows' : os.type(),
      release: os.release(),
      machine: os.machine(),
      homeDir: os.homedir()
    })
  }

  exec(command: RemoteCommand | string, opts: ExecOptions = {}): Promise<ExecResult> {
    return tracked(this.inFlight, this.execInner(command, opts))
  }

  private async execInner(command: RemoteCommand | string, opts: ExecOptions): Promise<ExecResult> {
    this.assertOpen()
    validateEnv(opts.env, this.label)
    const stdout = new StreamSink(opts.onStdout, opts.capture)
    const stderr = new StreamSink(opts.onStderr, opts.capture)
    let started = performance.now()
    const result = (end: { exitCode: number | null; signal: string | null } | undefined, timedOut: boolean, cancelled: boolean): ExecResult =>
      buildExecResult(started, stdout, stderr, end, { timedOut, cancelled })
    if (opts.signal?.aborted) return result(undefined, false, true)

    const sudo = opts.sudo ? await this.effectiveSudo(opts.sudo) : false
    const argv = isWindows
      ? ['powershell', '-NoProfile', '-NonInteractive', '-EncodedCommand', encodePowershell(windowsScript(command, { nonce: this.nonce, env: opts.env, cwd: opts.cwd }))]
      : [...sudoArgv(sudo), '/bin/sh', '-c', posixInnerScript(posixBody(command), { nonce: this.nonce, env: opts.env, cwd: opts.cwd })]
    const stdin = commandStdin(opts.stdin, sudo)

    started = performance.now()
    const spawned = this.spawnWrapped(argv, stdin, stdout, stderr, command)
    const watch = watchForStop(opts, () => this.stopProcess(spawned, sudo), this.running)
    if (this.closed) watch.cancel()
    try {
      const end = await spawned.ended
      await watch.stopped()
      return result(end, watch.reason === 'timeout', watch.reason === 'cancel')
    } finally {
      watch.dispose()
    }
  }

  private spawnWrapped(argv: string[], stdin: StdinSource, stdout: StreamSink, stderr: StreamSink, command: RemoteCommand | string): Spawned {
    const [file, ...args] = argv as [string, ...string[]]
    const child = spawn(file, args, { detached: !isWindows, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true })
    let resolveIds: (ids: ProcessIds | undefined) => void = () => undefined
    const processIds = new Promise<ProcessIds | undefined>((resolve) => (resolveIds = resolve))
    const outFilter = new PreambleFilter(stdoutMarker(this.nonce))
    const errFilter = new PreambleFilter(stderrMarker(this.nonce), (rest) => resolveIds(parseProcessIds(rest)))

    const pipe = (stream: NodeJS.ReadableStream, filter: PreambleFilter, sink: StreamSink): Promise<void> =>
      new Promise((resolve) => {
        const deliver = (bytes: Buffer): void => sink.pushFrom(stream, bytes)
        stream.on('data', (chunk: Buffer) => deliver(filter.write(chunk)))
        stream.on('end', () => {
          deliver(filter.end())
          resolve()
        })
        stream.on('error', () => resolve())
      })

    const streamsDone = Promise.all([pipe(child.stdout as NodeJS.ReadableStream, outFilter, stdout), pipe(child.stderr as NodeJS.ReadableStream, errFilter, stderr)])
    const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve, reject) => {
      child.on('error', (err) =>
        reject(new SessionError('channel', `cannot start ${shortCommand(command)} on ${this.label}: ${err.message}`, this.label, { cause: err }))
      )
      child.on('exit', (code, signal) => resolve({ exitCode: code, signal: signal ? signal.replace(/^SIG/, '') : null }))
    })
    const ended = exited.then(async (end) => {
      await streamsDone
      resolveIds(undefined)
      return end
    })
    child.stdin?.on('error', () => undefined)
    if (child.stdin) sendStdin(stdin, child.stdin)
    return { child, processIds, ended }
  }

  /** TERM to the process group, KILL after the grace period (through sudo when the command used it). */
  private async stopProcess(spawned: Spawned, sudo: SudoMode): Promise<void> {
    const pid = spawned.child.pid
    if (pid === undefined) return
    if (isWindows) {
      await this.runQuiet(taskkillCommand(pid).split(' '), Buffer.alloc(0))
      return
    }
    if (sudo) {
      const ids = await Promise.race([spawned.processIds, sleep(2000).then(() => undefined)])
      const pgid = ids?.pgid ?? pid
      await this.runQuiet([...sudoArgv(sudo), '/bin/sh', '-c', posixKillScript(pgid, this.killGraceMs)], commandStdin(undefined, sudo))
      return
    }
    try {
      process.kill(-pid, 'SIGTERM')
    } catch {
      return
    }
    const deadline = Date.now() + this.killGraceMs
    while (groupAlive(pid) && Date.now() < deadline) await sleep(25)
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // the group is gone
    }
  }

  /** Runs a helper command and collects its exit code and stderr. */
  private runQuiet(argv: string[], stdin: Buffer): Promise<{ exitCode: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const [file, ...args] = argv as [string, ...string[]]
      const child = spawn(file, args, { stdio: ['pipe', 'ignore', 'pipe'], windowsHide: true })
      let stderr = ''
      child.stderr?.setEncoding('utf8').on('data', (d: string) => {
        if (stderr.length < 65536) stderr += d
      })
      child.on('error', (err) => resolve({ exitCode: 127, stderr: err.message }))
      child.on('close', (code) => resolve({ exitCode: code, stderr }))
      child.stdin?.on('error', () => undefined)
      child.stdin?.end(stdin)
    })
  }

  private effectiveSudo(sudo: Exclude<SudoMode, false>): Promise<SudoMode> {
    if (isWindows) {
      return Promise.reject(new SessionError('sudo', `sudo is not available on ${this.label} (Windows): run VirtBench as an administrator instead`, this.label))
    }
    const key = sudoKey(sudo, (s) => createHash('sha256').update(s).digest('hex'))
    let checked = this.sudoModes.get(key)
    if (!checked) {
      checked = resolveSudo(this.label, sudo, (line, stdin) => this.runQuiet(['/bin/sh', '-c', line], stdin))
      this.sudoModes.set(key, checked)
      checked.catch(() => this.sudoModes.delete(key))
    }
    return checked
  }

  // ---- files -------------------------------------------------------------------------------

  async upload(localPath: string, targetPath: string, opts: UploadOptions = {}): Promise<void> {
    this.assertOpen()
    await this.replaceFile(targetPath, opts, (tmp) => copyFile(localPath, tmp), `copying ${localPath} to ${targetPath}`)
  }

  async writeFile(targetPath: string, data: string | Buffer, opts: UploadOptions = {}): Promise<void> {
    this.assertOpen()
    await this.replaceFile(targetPath, opts, (tmp) => writeFile(tmp, data), `writing ${targetPath}`)
  }

  private async replaceFile(targetPath: string, opts: UploadOptions, put: (tmp: string) => Promise<void>, what: string): Promise<void> {
    const tmp = `${targetPath}.vb-tmp-${randomBytes(4).toString('hex')}`
    try {
      await put(tmp)
      if (!isWindows) await chmod(tmp, opts.mode ?? 0o644)
      await rename(tmp, targetPath)
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined)
      throw new SessionError('upload', `${what} on ${this.label} failed: ${(err as Error).message}`, this.label, { cause: err })
    }
  }

  async ensureScripts(localDir: string): Promise<EnsureScriptsResult> {
    this.assertOpen()
    const bundle = await readScriptBundle(localDir)
    let pending = this.ensured.get(bundle.hash)
    let first = false
    if (!pending) {
      first = true
      pending = ensureBundle(this.store(), bundle)
      this.ensured.set(bundle.hash, pending)
      pending.catch(() => this.ensured.delete(bundle.hash))
    }
    const done = await pending
    this.ensuredDirs.add(done.remoteDir)
    return { remoteDir: done.remoteDir, uploaded: first && done.uploaded, hash: bundle.hash }
  }

  async removeWorkDir(): Promise<void> {
    const store = this.store()
    for (const dir of this.ensuredDirs) await store.removeDir(dir)
    this.ensuredDirs.clear()
    this.ensured.clear()
    await store.removeDirIfEmpty(await store.workRoot())
  }

  private workRoot(): string {
    if (this.workRootOption !== undefined) return this.workRootOption
    if (isWindows) return path.join(process.env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local'), 'virtbench', 'cache')
    return path.join(os.homedir(), '.cache', 'virtbench')
  }

  private store(): ScriptStore {
    const root = this.workRoot()
    return {
      label: this.label,
      workRoot: () => Promise.resolve(root),
      join: (dir, rel) => path.join(dir, ...rel.split('/')),
      hashFiles: async (dir, names) => {
        try {
          if (!(await stat(dir)).isDirectory()) return 'missing'
        } catch {
          return 'missing'
        }
        const out = new Map<string, string>()
        for (const name of names) {
          const file = path.join(dir, ...name.split('/'))
          try {
            const st = await stat(file)
            if (!st.isFile() || (!isWindows && (st.mode & 0o111) !== 0o111)) continue
            out.set(name, createHash('sha256').update(await readFile(file)).digest('hex'))
          } catch {
            // missing file: left out of the map
          }
        }
        return out
      },
      makeDirs: async (dir, subdirs) => {
        await mkdir(dir, { recursive: true, mode: 0o755 })
        for (const sub of subdirs) await mkdir(path.join(dir, ...sub.split('/')), { recursive: true, mode: 0o755 })
      },
      writeFile: (file, data) => writeFile(file, data, { mode: 0o755 }),
      makeExecutable: async (dir, names) => {
        if (isWindows) return
        for (const name of names) await chmod(path.join(dir, ...name.split('/')), 0o755)
      },
      renameDir: async (from, to) => {
        try {
          await stat(to)
        } catch {
          await rename(from, to)
          return
        }
        throw new Error(`${to} already exists`)
      },
      removeDir: (dir) => rm(dir, { recursive: true, force: true }),
      removeDirIfEmpty: (dir) => rmdir(dir).catch(() => undefined)
    }
  }

  // ---- close -------------------------------------------------------------------------------

  close(): Promise<void> {
    this.closeDone ??= (async () => {
      this.closed = true
      for (const stop of [...this.running]) stop()
      await Promise.race([Promise.allSettled([...this.inFlight]), sleep(this.killGraceMs * 2 + 2000)])
    })()
    return this.closeDone
  }

  private assertOpen(): void {
    if (this.closed) throw new SessionError('closed', `the session to ${this.label} is closed`, this.label)
  }
}
