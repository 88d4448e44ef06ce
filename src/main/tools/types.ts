import type { z } from 'zod'
import type { MetricDef } from '../../shared/model/metric-def'
import type { MetricCategory, Sample } from '../../shared/model/sample'

import type { ToolId } from '../../shared/model/tool-ids'

export { TOOL_IDS, type ToolId } from '../../shared/model/tool-ids'

export type TargetOs = 'linux' | 'windows'

/** What a plan may know about the machine a step runs on. */
export interface TargetFacts {
  os: TargetOs
  /** Absolute scratch directory on the disk under test; files a test creates go here. */
  workDir: string
  /** Where VirtBench's uploaded scripts live on this target (resources/scripts). */
  scriptsDir?: string
  /** Logical CPUs, when known (for "N copies" tests). */
  cpuCount?: number
  /** Where a tool that is not on PATH was found (for example the UnixBench directory). */
  toolPaths?: Partial<Record<ToolId, string>>
}

/** The second machine of a network test: the client on the target talks to a server on the peer. */
export interface PeerFacts extends TargetFacts {
  /** The address the client connects to (private/VPC or public EIP address of the peer). */
  address: string
}

export interface PlanContext {
  target: TargetFacts
  peer?: PeerFacts
}

/** A file a step writes on its machine before its script runs (for example a fio job file). */
export interface StepFile {
  path: string
  content: string
}

/** One command to run on the target or the peer, exactly as it will be run. */
export interface RemoteStep {
  /** Short name: 'server', 'client', 'run', 'read'... */
  id: string
  /** Which machine runs it. */
  on: 'target' | 'peer'
  shell: 'sh' | 'powershell'
  /** The exact command text for `shell`, every user value quoted. */
  script: string
  /** The argv, when the step is one command (for display and tests). */
  argv?: readonly string[]
  /** Files to write before the script runs. */
  files?: readonly StepFile[]
  timeoutSeconds: number
  /** Exit codes that count as success. */
  okExitCodes: readonly number[]
  /** Runs until the steps after it have ended, then is stopped (servers). */
  background?: boolean
  /** For a background step: the steps after it start once its output matches this (a server's "listening" line). */
  readyPattern?: RegExp
  /**
   * For a background step: once the measured step has ended, the engine waits until this step's
   * output matches `pattern` (for at most `withinSeconds`) before it stops it: a server that
   * reports the last part of a test itself (iperf 2's way back of -r).
   */
  finalReport?: { pattern: RegExp; withinSeconds: number }
  /** Whether this step's output is what `parse()` reads. Exactly one step per plan is measured. */
  measured?: boolean
  /** Needs root (raw devices, dropping caches). */
  sudo?: boolean
}

export interface Plan {
  steps: RemoteStep[]
  /** Paths the plan creates on each machine, removed by cleanup. */
  files: { on: 'target' | 'peer'; path: string }[]
  /** How long the steps should take, in seconds. */
  estimatedSeconds: number
}

/** What a run of the measured step produced. Parsers read only this. */
export interface StepOutput {
  stdout: string
  stderr: string
  exitCode: number | null
  signal?: string | null
  /** What the plan's background step (a network test's server) printed meanwhile, when it has one. */
  background?: { stdout: string; stderr: string }
}

export interface ParseError {
  /** What is wrong, in a sentence a person can act on. */
  reason: string
  /** The offending part of the output, quoted (short). */
  excerpt: string
}

export type ParseResult =
  | { ok: true; samples: Sample[]; warnings: string[] }
  | { ok: false; error: ParseError }

export type PackageManager = 'apt' | 'dnf' | 'yum' | 'zypper' | 'apk'

export type InstallRecipe =
  | {
      kind: 'package'
      manager: PackageManager
      packages: readonly string[]
      note?: string
      /** The packages only bring what building the tool needs; the tool itself then comes from the source recipe. */
      buildsFromSource?: true
    }
  | { kind: 'source'; os: 'linux'; commands: readonly string[]; note: string }
  | { kind: 'download'; os: 'windows'; url: string; note: string }

/**
 * How preflight and the environment capture find a tool and read its version
 * (resources/scripts/linux/tool-version.sh runs it; nothing else knows a tool's flags).
 * `pick` is a `sed -n` script that prints the version from the output (or the file); without
 * one, the first output line that holds a digit is kept.
 */
export type VersionProbe =
  /** `command args...` prints its version (run for 5 s at most, both output streams read). */
  | { kind: 'command'; command: string; args: readonly string[]; pick?: string }
  /** `command` prints no version of its own: found on PATH, its version is its package's (dpkg, rpm). */
  | { kind: 'package'; command: string; package: string }
  /** Not on PATH: the first of `folders` that holds `file` is the tool; `pick` reads the version from that file. */
  | { kind: 'folder'; file: string; folders: readonly string[]; pick: string }

/** What a storage test writes to the work directory, and how it does I/O (for preflight). */
export interface StorageNeed {
  /** Bytes the test's files take at most at once. */
  workingSetBytes: number
  /** O_DIRECT I/O (needs a filesystem that supports it; tmpfs makes it meaningless). */
  directIo: boolean
  /** The numbers are meant to come from the disk, not from the page cache. */
  uncached: boolean
}

/** A storage tool that can be pointed at a raw block device instead of a file (fio, dd). */
export interface RawDeviceUse {
  /** The parameters with `device` in place of the test's own file; `confirmed`: the person typed the device path again. */
  withDevice(params: Record<string, unknown>, device: string, confirmed: boolean): Record<string, unknown>
}

/** A network tool: what runs on the peer, and how clients and servers are told apart. */
export interface NetworkUse {
  /** `server`: the client talks to a server the test starts on the peer; `none`: the peer only answers (ping). */
  peerRuns: 'server' | 'none'
  /** The TCP port the test's server listens on, for a tool that runs one. */
  serverPort?(params: Record<string, unknown>): number
  /**
   * The parameters of the `index`-th (from 0) of several clients run at once against one peer,
   * each talking to a server of its own (iperf3 serves one client per server).
   */
  nthClient?(params: Record<string, unknown>, index: number): Record<string, unknown>
  /**
   * The parameters with the server listening only on `address` (study 001: `iperf3 -s --bind`),
   * or undefined when the test already says where its server listens.
   */
  bindServer?(params: Record<string, unknown>, address: string): Record<string, unknown> | undefined
}

export interface BenchmarkTool<P = unknown> {
  id: ToolId
  /** The tool's own name as people know it ('bonnie++', 'UnixBench'). */
  name: string
  categories: readonly MetricCategory[]
  description: string
  /** Parameters; `params.parse({})` gives the defaults. */
  params: z.ZodType<P>
  defaults: P
  /** Runs on Windows targets (PowerShell plans). */
  windows: boolean
  /** A network tool needs a peer machine; false for the others. */
  network: NetworkUse | false
  /** Whether the test may write to a raw device, and how its parameters point at one; false when it may not. */
  rawDevice: RawDeviceUse | false
  plan(params: P, ctx: PlanContext): Plan
  /** Pure: no clock, no disk, no config. `params` is absent when re-parsing an output run by hand. */
  parse(out: StepOutput, params?: P): ParseResult
  estimateSeconds(params: P): number
  metrics: readonly MetricDef[]
  /**
   * The figures a test with these parameters exists to measure, as names of `metrics` (with
   * their placeholders: `fio.<dir>.iops`) or concrete instances of them (`iozone.write`): they lead
   * every table and summary; the others are secondary. dd with bs=512 count=1000 measures latency,
   * dd with one 64 MiB block throughput.
   */
  primaryMetrics(params: P): readonly string[]
  /** What a test with these parameters writes to the work directory, or undefined when nothing worth checking. */
  storageNeed(params: P): StorageNeed | undefined
  /** How its presence and version are read on a target. */
  version: VersionProbe
  install: readonly InstallRecipe[]
}

/**
 * A tool of any parameter type, as the registry holds them. Callers validate raw params with
 * `tool.params.parse()` before `plan()`, so the loose type never meets unchecked data.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBenchmarkTool = BenchmarkTool<any>
