import type { Comparison, ComparisonRow, Flag } from '../../../shared/model/comparison'
import type { RunDocument, RunTest } from '../../../shared/model/run'
import type { MetricCategory } from '../../../shared/model/sample'
import { leadingRows } from '../../../shared/compare/summary'
import { latencyData } from '../features/charts/latency'
import { monitorJobs } from '../features/charts/monitor'
import { relativeViews } from '../features/charts/relative'
import { defaultChoice, metricChoices } from '../features/charts/rows'
import { iozoneChoices } from '../features/charts/iozone'

/**
 * What the PDF report shows, decided from the run and its comparison: pure functions, so the
 * choices (which charts, which rows, which commands) are tested without drawing anything.
 */

/** The comparison of one test: its rows only, the variants' own flags kept. */
export function testComparison(comparison: Comparison, testId: string): Comparison {
  return { ...comparison, rows: comparison.rows.filter((r) => r.testId === testId) }
}

export const CATEGORY_ORDER: readonly MetricCategory[] = ['storage', 'network', 'cpu', 'memory']
export const CATEGORY_TITLE: Record<MetricCategory, string> = { storage: 'Storage', network: 'Network', cpu: 'CPU', memory: 'Memory' }

/** The primary rows of the comparison (those with a figure) per category, in category order. */
export function headlineByCategory(comparison: Comparison): { category: MetricCategory; rows: ComparisonRow[] }[] {
  const out: { category: MetricCategory; rows: ComparisonRow[] }[] = []
  const leading = leadingRows(comparison)
  for (const category of CATEGORY_ORDER) {
    const rows = leading.filter((r) => r.category === category && r.cells.some((c) => c.stats || r.baseline))
    if (rows.length > 0) out.push({ category, rows })
  }
  return out
}

/** A flag and where it was raised: a variant as a whole, or one figure of one variant. */
export interface FlagEntry {
  flag: Flag
  variant: string
  /** "4 KiB random read · fio.read.iops (direction=...)"; absent for a variant-wide flag. */
  figure?: string
  category?: MetricCategory
  metric?: string
  /** The figure is a primary one of its test. */
  primary?: boolean
}

/** Flags about a whole variant (its setup, the machine it is), which its every cell repeats. */
const VARIANT_WIDE: ReadonlySet<Flag['kind']> = new Set(['scenario-mismatch', 'same-machine', 'baseline-virtual'])

/** Every flag of the comparison, variant-wide ones first, each once. */
export function flagEntries(comparison: Comparison): FlagEntry[] {
  const out: FlagEntry[] = []
  const seen = new Set<string>()
  const add = (entry: FlagEntry): void => {
    const key = [entry.flag.kind, entry.variant, entry.figure ?? '', entry.flag.message].join('\u0000')
    if (seen.has(key)) return
    seen.add(key)
    out.push(entry)
  }
  for (const variant of comparison.variants) for (const flag of comparison.variantFlags[variant] ?? []) add({ flag, variant })
  for (const row of comparison.rows) {
    const labels = Object.entries(row.labels).map(([k, v]) => `${k}=${v}`).join(', ')
    const figure = `${row.testTitle} · ${row.metric}${labels ? ` (${labels})` : ''}`
    for (const cell of row.cells) {
      for (const flag of cell.flags) {
        // a variant-wide flag is repeated on every one of its cells: it is listed once, above
        if (VARIANT_WIDE.has(flag.kind)) continue
        add({ flag, variant: cell.variant, figure, ...(row.category ? { category: row.category } : {}), metric: row.metric, primary: row.primary })
      }
    }
  }
  return out
}

/** Flags of one kind written out in full; the rest are named (a noisy run of twenty variants stays readable). */
export const FLAGS_DETAILED_PER_KIND = 12

/** Flags by kind, in order of first appearance; `detailed` ones (variant-wide, or on a primary figure) get their full message. */
export function flagGroups(entries: readonly FlagEntry[]): { kind: Flag['kind']; detailed: FlagEntry[]; others: FlagEntry[] }[] {
  const groups = new Map<Flag['kind'], { kind: Flag['kind']; detailed: FlagEntry[]; others: FlagEntry[] }>()
  for (const entry of entries) {
    let group = groups.get(entry.flag.kind)
    if (!group) groups.set(entry.flag.kind, (group = { kind: entry.flag.kind, detailed: [], others: [] }))
    if (!entry.metric || (entry.primary === true && group.detailed.length < FLAGS_DETAILED_PER_KIND)) group.detailed.push(entry)
    else group.others.push(entry)
  }
  return [...groups.values()]
}

/**
 * The relative-% views one test's section draws: with few variants, one chart per variant of every
 * primary metric; with more variants than metrics, one chart per metric of every variant.
 */
export function relativeViewKeys(comparison: Comparison): string[] {
  const views = relativeViews(comparison)
  const byVariant = views.filter((v) => v.kind === 'variant')
  const primary = new Set(leadingRows(comparison).map((r) => r.metric))
  const byMetric = views.filter((v) => v.kind === 'metric' && primary.has(v.key.split('|')[1] ?? ''))
  const chosen = byVariant.length > 0 && (byMetric.length === 0 || byVariant.length <= byMetric.length) ? byVariant : byMetric
  return chosen.slice(0, RELATIVE_CHARTS_PER_TEST).map((v) => v.key)
}

/**
 * Charts per test: a report stays a few pages per test and prints in seconds even for twenty
 * variants; the test's table has every figure, and the app draws any other chart.
 */
export const RELATIVE_CHARTS_PER_TEST = 2

/** The metrics drawn as side-by-side bars: its primary metrics (four with few variants, one with many), else its first. */
export function barMetricKeys(comparison: Comparison): string[] {
  const choices = metricChoices(comparison)
  const headline = choices.filter((c) => c.headline).map((c) => c.key)
  const keys = headline.length > 0 ? headline : [defaultChoice(choices)].filter((k): k is string => k !== undefined)
  return keys.slice(0, comparison.variants.length <= 4 ? 4 : 1)
}

export function hasLatency(comparison: Comparison): boolean {
  return latencyData(comparison).groups.length > 0
}

/** At most this many host-monitor charts per test (one per target, first repetition; guests seen from their host first). */
export const MONITOR_CHARTS_PER_TEST = 3

/** The monitored jobs of a test drawn in the report: the first repetition on each target. */
export function monitorJobIds(run: RunDocument, testId: string): { ids: string[]; more: number } {
  const seen = new Set<string>()
  const ids: string[] = []
  for (const choice of monitorJobs(run)) {
    if (choice.job.testId !== testId || seen.has(choice.job.target)) continue
    seen.add(choice.job.target)
    ids.push(choice.key)
  }
  return { ids: ids.slice(0, MONITOR_CHARTS_PER_TEST), more: Math.max(0, ids.length - MONITOR_CHARTS_PER_TEST) }
}

/** The iozone heatmaps of a test: its primary sub-tests (write and read), else the first, on each target. */
export function iozoneViews(run: RunDocument, testId: string): { side: string; subtest: string }[] {
  const choices = iozoneChoices(run)
  if (!choices.tests.some((t) => t.id === testId)) return []
  const primary = (run.tests.find((t) => t.id === testId)?.primary ?? []).map((m) => m.slice(m.indexOf('.') + 1))
  const preferred = primary.filter((s) => choices.subtests.includes(s))
  const subtests = preferred.length > 0 ? preferred : choices.subtests.slice(0, 1)
  return choices.sides.flatMap((side) => subtests.map((subtest) => ({ side, subtest })))
}

/** A test's parameters as "key=value" words, in the order the plan gave them. */
export function paramsText(test: Pick<RunTest, 'params'>): string[] {
  return Object.entries(test.params).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
}

/** One command as run on a target, with the jobs that ran it. */
export interface CommandUse {
  command: string
  /** "measured", "server" (a peer's iperf3 -s), or the step id. */
  step: string
  tests: string[]
  times: number
}

/** The exact commands run on each target, each distinct command once, in the order first run. */
export function commandsByTarget(run: RunDocument): { target: string; label: string; commands: CommandUse[] }[] {
  const byTarget = new Map<string, Map<string, CommandUse>>()
  for (const job of run.jobs) {
    for (const step of job.steps) {
      let commands = byTarget.get(step.on)
      if (!commands) byTarget.set(step.on, (commands = new Map()))
      const use = commands.get(step.command)
      if (use) {
        use.times++
        if (!use.tests.includes(job.title)) use.tests.push(job.title)
      } else {
        commands.set(step.command, { command: step.command, step: step.measured ? 'measured' : step.id, tests: [job.title], times: 1 })
      }
    }
  }
  const order = [...run.targets.map((t) => t.name), ...byTarget.keys()]
  return [...new Set(order)]
    .filter((name) => byTarget.has(name))
    .map((name) => ({
      target: name,
      label: run.targets.find((t) => t.name === name)?.label ?? name,
      commands: [...byTarget.get(name)!.values()]
    }))
}

/** The warnings and errors of a test's jobs, each once, with the targets they came from. */
export function testNotes(run: RunDocument, testId: string): { text: string; sides: string[]; kind: 'warning' | 'error' }[] {
  const notes = new Map<string, { text: string; sides: string[]; kind: 'warning' | 'error' }>()
  const add = (text: string, side: string, kind: 'warning' | 'error'): void => {
    const key = `${kind}\u0000${text}`
    const note = notes.get(key)
    if (note) {
      if (!note.sides.includes(side)) note.sides.push(side)
    } else notes.set(key, { text, sides: [side], kind })
  }
  for (const job of run.jobs) {
    if (job.testId !== testId) continue
    for (const warning of job.warnings) add(warning, job.side, 'warning')
    if (job.status === 'failed' && job.error) add(job.error, job.side, 'error')
  }
  return [...notes.values()]
}
