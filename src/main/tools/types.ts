import type { z } from 'zod'
import type { MetricCategory, MetricDef, Sample } from '../../shared/model/sample'

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
  | { kind: 'package'; manager: PackageManager; packages: readonly string[]; note?: string }
  | { kind: 'source'; os: 'linux'; commands: readonly string[]; note: string }
  | { kind: 'download'; os: 'windows'; url: string; note: string }

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
  /** Needs a peer machine (network tools). */
  needsPeer: boolean
  plan(params: P, ctx: PlanContext): Plan
  /** Pure: no clock, no disk, no config. `params` is absent when re-parsing an output run by hand. */
  parse(out: StepOutput, params?: P): ParseResult
  estimateSeconds(params: P): number
  metrics: readonly MetricDef[]
  install: readonly InstallRecipe[]
}

/**
 * A tool of any parameter type, as the registry holds them. Callers validate raw params with
 * `tool.params.parse()` before `plan()`, so the loose type never meets unchecked data.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBenchmarkTool = BenchmarkTool<any>
