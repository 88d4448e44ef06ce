/**
 * Measuring a known-truth target directly, without VirtBench: the exact commands (run over the
 * target's own sshd, so inside its cgroup and namespaces), the figures read from their output,
 * and an iperf3 server on this machine for the network path.
 */
import { spawn } from 'node:child_process'
import { quoteSh, shJoin } from '../../../src/shared/shell-quote'
import { sshExec } from '../sshd'
import { joinCgroupsPrefix, type LimitedTarget } from './limited-sshd'

/** sysbench's "events per second" (cpu test). */
export function sysbenchEventsPerSecond(stdout: string): number {
  const match = /events per second:\s+([\d.]+)/.exec(stdout)
  if (!match) throw new Error(`sysbench printed no "events per second":\n${stdout}`)
  return Number(match[1])
}

/** dd's own byte count over its own elapsed seconds (more digits than the rate it prints). */
export function ddBytesPerSecond(stderr: string): number {
  const match = /^(\d+) bytes .* copied, ([\d.e+-]+) s,/m.exec(stderr)
  if (!match) throw new Error(`dd printed no "N bytes ... copied, S s" line:\n${stderr}`)
  return Number(match[1]) / Number(match[2])
}

/** What the iperf3 server received, in bit/s, from the client's `-J` report. */
export function iperf3ReceivedBitsPerSecond(json: string): number {
  const report = JSON.parse(json) as { end?: { sum_received?: { bits_per_second?: number } }; error?: string }
  const bits = report.end?.sum_received?.bits_per_second
  if (bits === undefined) throw new Error(`iperf3 reported no received rate${report.error ? `: ${report.error}` : ''}`)
  return bits
}

/** `value` as a percentage of `baseline`. */
export function percentOf(value: number, baseline: number): number {
  return (100 * value) / baseline
}

/** Runs `command` on the target over its sshd; resolves with stdout and stderr, or throws saying where it failed. */
export async function runOn(target: LimitedTarget, command: string): Promise<{ stdout: string; stderr: string }> {
  const result = await sshExec(target.server, command)
  if (result.code !== 0) {
    throw new Error(`known-truth target ${target.name}: \`${command}\` exited with ${result.code}:\n${result.stderr}${result.stdout}`)
  }
  return result
}

/** sysbench cpu for `seconds` on one thread: events per second. */
export async function measureCpu(target: LimitedTarget, seconds: number): Promise<number> {
  const { stdout } = await runOn(target, shJoin(['sysbench', 'cpu', '--threads=1', `--time=${seconds}`, 'run']))
  return sysbenchEventsPerSecond(stdout)
}

export interface DdRun {
  /** dd's bs */
  blockSize: string
  count: number
  /** `write`: /dev/zero to a new file with oflag=direct; `read`: that file to /dev/null with iflag=direct. */
  mode: 'write' | 'read'
  /** Extra dd words (e.g. `conv=fsync`) replacing the O_DIRECT flag when given. */
  flags?: string[]
  file?: string
}

/** dd in the target's work directory: bytes per second. */
export async function measureDd(target: LimitedTarget, run: DdRun): Promise<number> {
  const file = run.file ?? 'truth.dd'
  const [input, output, direct] = run.mode === 'write' ? ['/dev/zero', file, 'oflag=direct'] : [file, '/dev/null', 'iflag=direct']
  const dd = shJoin(['dd', `if=${input}`, `of=${output}`, `bs=${run.blockSize}`, `count=${run.count}`, ...(run.flags ?? [direct])])
  const { stderr } = await runOn(target, `cd ${quoteSh(target.workDir)} && LC_ALL=C ${dd}`)
  return ddBytesPerSecond(stderr)
}

export interface Iperf3Server {
  pid: number
  /** Ends the server (TERM, KILL after 3 s) unless it already ended after its one test (-1). */
  stop(): Promise<void>
}

/**
 * `iperf3 -s -1` on this machine, bound to `address`, in the cgroup of `inCgroupOf` when given (a
 * lab's peer: the highest CPU weight keeps a server on a loaded machine from distorting the
 * figures); resolves once it listens (10 s deadline).
 */
export function startIperf3Server(address: string, port: number, inCgroupOf?: LimitedTarget): Promise<Iperf3Server> {
  const [command, ...args] = [
    ...(inCgroupOf ? joinCgroupsPrefix(inCgroupOf.cgroup.procsFiles) : []),
    ...['iperf3', '-s', '-1', '--bind', address, '-p', String(port), '--forceflush']
  ] as [string, ...string[]]
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(kill)
  }
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`iperf3 server on ${address}:${port} did not say it listens within 10 s: ${output}`))
    }, 10_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      if (output.includes('Server listening')) {
        clearTimeout(timer)
        resolve({ pid: child.pid as number, stop })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('close', (code) => {
      clearTimeout(timer)
      reject(new Error(`iperf3 server on ${address}:${port} exited (${code}) before it listened: ${output}`))
    })
  })
}

export interface Iperf3Run {
  /** A root-namespace address the target reaches through its link (its peerAddress, or the lab peer's). */
  address: string
  port: number
  seconds: number
  /** Seconds left out at the start (-O), while TCP ramps up and the bucket's burst passes. */
  omitSeconds: number
  /** Runs the server in this target's cgroup (the lab's peer). */
  serverCgroupOf?: LimitedTarget
}

/** iperf3 from the target to a server on this machine at `run.address`: what the server received, in bit/s. */
export async function measureNetwork(target: LimitedTarget, run: Iperf3Run): Promise<number> {
  const server = await startIperf3Server(run.address, run.port, run.serverCgroupOf)
  try {
    const client = shJoin(['iperf3', '-c', run.address, '-p', String(run.port), '-t', String(run.seconds), '-O', String(run.omitSeconds), '-J'])
    const { stdout } = await runOn(target, client)
    return iperf3ReceivedBitsPerSecond(stdout)
  } finally {
    await server.stop()
  }
}
