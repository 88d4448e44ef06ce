import type { Sample } from '../../../shared/model/sample'
import { excerpt, parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { rateAgrees, type StressorFigures } from './figures'
import { readLog, type StressNgLog } from './log-table'
import { stressNgMetrics } from './metrics'
import { STRESSORS, type Stressor, type StressNgParams } from './params'
import { readYamlReport } from './yaml-report'

const metric = sampler(stressNgMetrics)

/** What each of stress-ng's documented exit statuses means, and what to do about it. */
const EXIT_STATUSES: Readonly<Record<number, { what: string; todo: string }>> = {
  1: {
    what: 'stress-ng refused its options or could not set itself up (exit 1)',
    todo: "check the test's parameters against `stress-ng --help` on this target: an older stress-ng may lack the chosen method"
  },
  2: { what: 'a stressor failed (exit 2)', todo: "the figures are not a valid measurement; stress-ng's log is in the raw output" },
  3: {
    what: 'a stressor could not start for lack of resources, such as memory or a system call (exit 3)',
    todo: 'lower vmBytes or workers, or free memory on the target'
  },
  4: { what: 'the stressor is not implemented on this system or architecture (exit 4)', todo: 'choose another method or stressor for this target' },
  5: {
    what: 'a worker was killed by an unexpected signal, often by the out-of-memory killer (exit 5)',
    todo: 'lower vmBytes or workers, or give the target more memory'
  },
  6: { what: 'a worker exited unexpectedly, so stress-ng could not gather its times (exit 6)', todo: "see stress-ng's log in the raw output, and run again" },
  7: {
    what: 'stress-ng says its bogo-op counts may be untrustworthy, for example after a worker was killed while counting (exit 7)',
    todo: 'run again; if it repeats, lower vmBytes or workers'
  }
}

/** What stress-ng said about its failure: its first fail or error message, else the first line that is not a log message. */
function complaint(log: StressNgLog): string | undefined {
  return log.messages.find((m) => m.type === 'fail' || m.type === 'error')?.text ?? log.other[0]?.trim()
}

function exitFailure(code: number, log: StressNgLog): ParseResult {
  const status = EXIT_STATUSES[code] ?? { what: `stress-ng exited with code ${code}`, todo: "see stress-ng's log in the raw output" }
  const said = complaint(log)
  return parseFailure(`${status.what}${said ? `: "${excerpt(said)}"` : ''}; ${status.todo}`, said ?? '')
}

/** Figures of a stressor VirtBench has metric definitions for. */
type KnownFigures = StressorFigures & { stressor: Stressor }

function isKnown(f: StressorFigures): f is KnownFigures {
  return (STRESSORS as readonly string[]).includes(f.stressor)
}

/** Why the two reports of one run disagree, or null: the log's two decimals are the YAML's six, rounded. */
function disagreement(yaml: readonly StressorFigures[], log: readonly StressorFigures[]): string | null {
  const names = (list: readonly StressorFigures[]) => list.map((f) => f.stressor).join(', ')
  if (names(yaml) !== names(log)) return `the YAML report lists ${names(yaml)} but the log's table ${names(log)}`
  for (const [i, y] of yaml.entries()) {
    const l = log[i]!
    const close = (a: number, b: number) => Math.abs(a - b) <= l.rounding + y.rounding + 1e-9 * Math.abs(a)
    if (y.ops !== l.ops || !close(y.opsPerSecond, l.opsPerSecond) || !close(y.opsPerCpuSecond, l.opsPerCpuSecond)) {
      return `the ${y.stressor} figures of the YAML report (${y.ops} bogo ops, ${y.opsPerSecond}/s) are not the log's (${l.ops}, ${l.opsPerSecond}/s)`
    }
  }
  return null
}

/** The figures of the stressors VirtBench reads: the test's own one, or every one it has definitions of. */
function readable(figures: readonly StressorFigures[], params: StressNgParams | undefined, warnings: string[]): KnownFigures[] | string {
  const found = figures.map((f) => f.stressor).join(', ')
  if (params) {
    const others = figures.filter((f) => f.stressor !== params.stressor).map((f) => f.stressor)
    if (others.length === figures.length) return `the test ran the ${params.stressor} stressor but the output has figures of ${found} only: is it the output of another run?`
    if (others.length > 0) return `the test ran the ${params.stressor} stressor alone but the output also has ${others.join(', ')}: is it the output of another run?`
  }
  for (const f of figures.filter((f) => !isKnown(f))) {
    warnings.push(`VirtBench has no metric definitions for stress-ng's ${f.stressor} stressor (it reads ${STRESSORS.join(', ')}); its figures are not recorded`)
  }
  const known = figures.filter(isKnown)
  return known.length > 0 ? known : `none of the stressors in this output (${found}) is one VirtBench reads (${STRESSORS.join(', ')})`
}

/** Why a stressor's figures are not a measurement, or null. */
function unusable(f: StressorFigures): string | null {
  if (f.ops === 0) {
    const hint =
      f.stressor === 'vm'
        ? 'the vm workers could not map their memory (stress-ng keeps retrying without a word): lower vmBytes or workers, or free memory on the target'
        : "its workers did no work: see stress-ng's log in the raw output"
    return `the ${f.stressor} stressor did no bogo operations in ${f.wallSeconds} s; ${hint}`
  }
  if (!rateAgrees(f)) return `the ${f.stressor} stressor's ${f.opsPerSecond} bogo ops/s is not its ${f.ops} bogo ops / ${f.wallSeconds} s, so the output is damaged`
  return null
}

function samplesOf(f: KnownFigures): Sample[] {
  const name = (what: string) => `stress-ng.${f.stressor}.${what}`
  return [
    metric(name('ops-per-second'), f.opsPerSecond),
    metric(name('ops-per-cpu-second'), f.opsPerCpuSecond),
    metric(name('ops'), f.ops),
    ...(f.cpuUsage !== undefined ? [metric(name('cpu-usage'), f.cpuUsage)] : [])
  ]
}

/**
 * Reads what the plan's step prints: stress-ng's YAML report on stdout (exact figures) and its log
 * on stderr, whose metrics table (`--metrics-brief` or `--metrics`, `metrc:` or older `info:`
 * lines) is read when there is no YAML report and checked against it when there is. A run that
 * stress-ng itself calls unsuccessful (a non-zero exit) is not a measurement, and says why.
 */
export function parse(out: StepOutput, params?: StressNgParams): ParseResult {
  const log = readLog(out)
  const text = `${out.stdout}\n${out.stderr}`
  if (out.signal) return parseFailure(`stress-ng was stopped by signal ${out.signal} before it finished`, text, Math.max(0, text.trimEnd().length - 80))
  if (out.exitCode !== null && out.exitCode !== 0) return exitFailure(out.exitCode, log)
  const yaml = readYamlReport(out.stdout)
  if (yaml && 'problem' in yaml) return parseFailure(yaml.problem, out.stdout, yaml.at)
  if (typeof log.table === 'string') return parseFailure(log.table, text, Math.max(0, text.trimEnd().length - 80))
  if (!yaml && !log.table) {
    return parseFailure(
      'no stress-ng metrics found: expected its YAML report (--yaml) on stdout or the metrics table of --metrics-brief on stderr',
      text,
      text.search(/\S/)
    )
  }
  const warnings: string[] = []
  if (yaml && log.table) {
    const differ = disagreement(yaml.figures, log.table)
    if (differ) return parseFailure(`${differ}: are they from two different runs?`, log.table[0]!.text)
  } else if (!yaml) {
    warnings.push("stress-ng wrote no YAML report, so the figures are its log's, rounded to two decimals")
  }
  const figures = readable(yaml?.figures ?? log.table!, params, warnings)
  if (typeof figures === 'string') return parseFailure(figures, text, text.search(/\S/))
  const samples: Sample[] = []
  for (const f of figures) {
    const problem = unusable(f)
    if (problem) return parseFailure(problem, f.text)
    samples.push(...samplesOf(f))
  }
  for (const m of log.messages.filter((m) => m.type === 'warn')) warnings.push(`stress-ng warned: ${m.text.trim()}`)
  return parseSuccess(samples, warnings)
}
