import type { CpuWindow } from '../../shared/model/run'

/**
 * What else used a machine while a job measured: the aggregate CPU line of /proc/stat and the
 * load average, read just before and just after the measured step (outside it, so the reading
 * costs the measurement nothing), and the CPU time the tool itself used (the job's `times`, read
 * by job.sh without starting a process). From them: the share of the machine's CPU time the
 * hypervisor stole, and the share that other work used, beside the tool.
 */

/** The `cpu` line of /proc/stat (ticks) and the 1-minute load, at one moment. */
export interface CpuSnapshot {
  /** user nice system idle iowait irq softirq steal, in clock ticks. */
  ticks: number[]
  load1?: number
  cpus?: number
  /** Milliseconds since the epoch on this side, for the window's length. */
  at: number
}

/**
 * The shell text that prints what `cpuSnapshotOf` reads: the stat line, the load, the CPU count
 * (the online CPUs, from the ranges in /sys/devices/system/cpu/online). Shell builtins only, and
 * short lines only (a shell's `read` takes a byte at a time): it runs on a measured machine's
 * physical host just before and after each measured step (job.sh does the same on the target).
 */
export const CPU_SNAPSHOT_SCRIPT =
  'read -r l </proc/stat && echo "$l"; read -r l </proc/loadavg && echo "$l"; ' +
  'if read -r l </sys/devices/system/cpu/online; then n=0; o=$IFS; IFS=,; ' +
  'for r in $l; do case $r in *-*) n=$((n + ${r#*-} - ${r%-*} + 1)) ;; *) n=$((n + 1)) ;; esac; done; IFS=$o; [ "$n" -gt 0 ] && echo "$n"; fi'


/** Reads CPU_SNAPSHOT_SCRIPT's output; undefined when it is not there (not Linux, no /proc). */
export function cpuSnapshotOf(text: string, at: number): CpuSnapshot | undefined {
  const lines = text.split('\n')
  const stat = lines.find((l) => /^cpu\s/.test(l))
  if (!stat) return undefined
  const ticks = stat.trim().split(/\s+/).slice(1).map(Number)
  if (ticks.length < 4 || !ticks.every(Number.isFinite)) return undefined
  const load = lines.map((l) => /^(\d+(?:\.\d+)?)\s+\d+(?:\.\d+)?\s+\d+(?:\.\d+)?\s/.exec(l)).find(Boolean)
  const cpus = lines.map((l) => /^(\d+)$/.exec(l.trim())).find(Boolean)
  return { ticks, ...(load ? { load1: Number(load[1]) } : {}), ...(cpus ? { cpus: Number(cpus[1]) } : {}), at }
}

/** CPU seconds (user + system) of the tool's processes, from the second line of sh's `times` (`0m1.23s 0m0.04s`). */
export function toolCpuSecondsOf(times: string): number | undefined {
  const line = times.split('\n').map((l) => l.trim()).filter(Boolean)[1]
  if (!line) return undefined
  const parts = [...line.matchAll(/(\d+)m(\d+(?:\.\d+)?)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]))
  return parts.length === 2 ? parts[0]! + parts[1]! : undefined
}

/** Clock ticks per second of /proc/stat (USER_HZ, 100 on every Linux VirtBench runs on). */
const USER_HZ = 100

/**
 * The window between two snapshots: steal and busy in % of the machine's CPU time, and what was
 * busy beyond the tool's own `toolCpuSeconds` (absent when not known: the physical host).
 */
export function cpuWindowOf(target: string, before: CpuSnapshot, after: CpuSnapshot, toolCpuSeconds?: number): CpuWindow {
  const delta = after.ticks.map((t, i) => t - (before.ticks[i] ?? 0))
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = delta
  const total = user + nice + system + idle + iowait + irq + softirq + steal
  const busy = user + nice + system + irq + softirq
  const pct = (ticks: number): number => (total > 0 ? (100 * ticks) / total : 0)
  const window: CpuWindow = {
    target,
    seconds: Math.max(0, (after.at - before.at) / 1000),
    stealPct: pct(steal),
    busyPct: pct(busy),
    ...(before.load1 !== undefined ? { loadBefore: before.load1 } : {}),
    ...(after.cpus !== undefined ? { cpus: after.cpus } : {})
  }
  if (toolCpuSeconds !== undefined && total > 0) window.otherPct = Math.max(0, pct(busy - toolCpuSeconds * USER_HZ))
  return window
}

/** Steal above this share of a machine's CPU time disturbs a measurement. */
export const STEAL_LIMIT_PCT = 5
/** Other work above this share of a machine's CPU time (beside the tool) disturbs a measurement. */
export const OTHER_LIMIT_PCT = 25

/**
 * What disturbed the job, in words, or undefined when nothing did (the comparison's `contaminated`
 * flag): steal on any machine, and other work beside the tool on the measured machine. A physical
 * host's busy time is recorded but not judged: its guest's own work is part of it.
 */
export function disturbance(windows: readonly CpuWindow[]): string | undefined {
  const seen: string[] = []
  for (const w of windows) {
    if (w.stealPct > STEAL_LIMIT_PCT) seen.push(`${w.target} lost ${round(w.stealPct)} % of its CPU time to steal`)
    if (w.otherPct !== undefined && w.otherPct > OTHER_LIMIT_PCT) seen.push(`other work used ${round(w.otherPct)} % of ${w.target}'s CPU time beside the tool`)
  }
  return seen.length > 0 ? seen.join(', ') : undefined
}

function round(n: number): number {
  return Math.round(n)
}
