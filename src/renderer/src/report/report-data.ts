import type { Comparison, ComparisonRow, Flag } from '../../../shared/model/comparison'
import { VERDICTS } from '../../../shared/model/comparison'
import type { DiskActivity, Job, RunDocument, RunTest } from '../../../shared/model/run'
import { median } from '../../../shared/compare/stats'
import type { MetricCategory } from '../../../shared/model/sample'
import { leadingRows, VERDICT_WORDS, verdictCounts, type VerdictCounts } from '../../../shared/compare/summary'
import { defaultMeasure, monitorJobs, monitorSources, monitorView } from '../features/charts/monitor'
import { relativeData, relativeViews } from '../features/charts/relative'
import type { MatrixGrid } from '../features/charts/network-matrix'
import { isSurfaceRow } from '../../../shared/studies/surface-maps'

/**
 * What the PDF report shows, decided from the run and its comparison: pure functions, so the
 * choices (which charts, which rows, which commands) are tested without drawing anything.
 */

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

/** The rows of a category, or of none ("other": a hand-made run's metrics without a category). */
export type ReportCategory = MetricCategory | 'other'
export const REPORT_CATEGORY_TITLE: Record<ReportCategory, string> = { ...CATEGORY_TITLE, other: 'Other figures' }

/** One page of the report per category: its rows (every figure, not only the primary ones) and the tests they come from. */
export interface CategoryPart {
  category: ReportCategory
  /** The comparison restricted to the category's rows (the variants' own flags kept). */
  comparison: Comparison
  /** The tests with a row in the category, in the plan's order. */
  tests: RunTest[]
}

/** The report's category pages, in category order; a test whose figures span categories appears in each. */
export function categoryParts(run: RunDocument, comparison: Comparison): CategoryPart[] {
  const out: CategoryPart[] = []
  for (const category of [...CATEGORY_ORDER, 'other' as const]) {
    const rows = comparison.rows.filter((r) => (r.category ?? 'other') === category)
    if (rows.length === 0) continue
    const ids = new Set(rows.map((r) => r.testId))
    out.push({ category, comparison: { ...comparison, rows }, tests: run.tests.filter((t) => ids.has(t.id)) })
  }
  return out
}

/** "2 slower · 1 can't tell": the non-zero counts in the verdicts' order, in VERDICT_WORDS; empty when nothing was compared. */
export function verdictWordsText(counts: VerdictCounts): string {
  return VERDICTS.filter((v) => counts[v] > 0)
    .map((v) => `${counts[v]} ${VERDICT_WORDS[v]}`)
    .join(' · ')
}

/** Per variant and headline category, how many primary figures got each verdict (the first page's answer). */
export function verdictTable(comparison: Comparison): { categories: MetricCategory[]; variants: { variant: string; total: VerdictCounts; byCategory: (VerdictCounts | undefined)[] }[] } {
  const headline = headlineByCategory(comparison)
  const all = headline.flatMap((h) => h.rows)
  return {
    categories: headline.map((h) => h.category),
    variants: comparison.variants.map((variant, i) => ({
      variant,
      total: verdictCounts(all, i),
      byCategory: headline.map((h) => (h.rows.some((r) => r.cells[i]) ? verdictCounts(h.rows, i) : undefined))
    }))
  }
}

/** A chart draws something worth a place on paper: two points or more, not all of them zero. */
export function worthDrawing(values: readonly number[]): boolean {
  return values.length >= 2 && values.some((v) => v !== 0)
}

/** The relative-% views of a category page that have something to draw (two bars or more, not all zero), with their bar counts. */
export function drawnRelativeViews(comparison: Comparison): { key: string; bars: number }[] {
  const views = relativeViews(comparison)
  return relativeViewKeys(comparison).flatMap((key) => {
    const view = views.find((v) => v.key === key)
    const items = view ? relativeData(comparison, view).items : []
    return worthDrawing(items.map((i) => i.pct)) ? [{ key, bars: items.length }] : []
  })
}

/** A job's host monitor chart has something to draw: a series of two seconds or more, or two sources side by side; not all zero. */
export function monitorWorthDrawing(run: RunDocument, job: Job): boolean {
  const sources = monitorSources(run, job)
  if (sources.length === 0) return false
  const measure = defaultMeasure(sources)
  const view = monitorView(sources, measure)
  if (view.mode === 'series') {
    const values = view.rows.flatMap((row) => sources.map((s) => row[s.key]).filter((v): v is number => v !== undefined))
    return view.rows.length >= 2 && values.some((v) => v !== 0)
  }
  return worthDrawing(view.bars.map((b) => b.value))
}

/** A line of the raw-output index: one test on one target, its jobs and the files their measured steps wrote. */
export interface RawOutputEntry {
  test: string
  target: string
  jobs: number
  failed: number
  /** Files relative to the run's folder, in job order: the measured step's stdout (and stderr when it said something). */
  files: string[]
}

/** Where the raw output of every measured step is kept, per test and target, in the run's order. */
export function rawOutputIndex(run: RunDocument): RawOutputEntry[] {
  const entries = new Map<string, RawOutputEntry>()
  for (const job of run.jobs) {
    if (job.kind === 'warmup') continue
    const key = `${job.testId}\u0000${job.side}`
    let entry = entries.get(key)
    if (!entry) entries.set(key, (entry = { test: job.title, target: job.side, jobs: 0, failed: 0, files: [] }))
    entry.jobs++
    if (job.status === 'failed') entry.failed++
    for (const step of job.steps) {
      if (!step.measured) continue
      if (step.stdoutFile) entry.files.push(step.stdoutFile)
    }
  }
  return [...entries.values()]
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
  // a surface's cells (iozone: hundreds a test) raise the same flag each: one entry per test, variant and kind
  for (const entry of surfaceFlagEntries(comparison)) add(entry)
  for (const row of comparison.rows) {
    if (isSurfaceRow(row)) continue
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

/**
 * The flags of surface cells, grouped per test, variant and kind: "iozone -Raz … · 728 of its 728
 * cells (13 sub-tests), the first:" and the first cell's message.
 */
function surfaceFlagEntries(comparison: Comparison): FlagEntry[] {
  const groups = new Map<string, { flag: Flag; variant: string; row: ComparisonRow; cells: number; subtests: Set<string> }>()
  const cellsOfTest = new Map<string, number>()
  for (const row of comparison.rows) {
    if (!isSurfaceRow(row)) continue
    cellsOfTest.set(row.testId, (cellsOfTest.get(row.testId) ?? 0) + 1)
    for (const cell of row.cells) {
      for (const flag of cell.flags) {
        if (VARIANT_WIDE.has(flag.kind)) continue
        const key = [row.testId, cell.variant, flag.kind].join('\u0000')
        const group = groups.get(key) ?? { flag, variant: cell.variant, row, cells: 0, subtests: new Set<string>() }
        group.cells++
        group.subtests.add(row.metric)
        groups.set(key, group)
      }
    }
  }
  return [...groups.values()].map((g) => ({
    flag: g.flag,
    variant: g.variant,
    figure: `${g.row.testTitle} · on ${g.cells} of its ${cellsOfTest.get(g.row.testId)} file size x record size cells (${g.subtests.size} sub-test${g.subtests.size === 1 ? '' : 's'}), the first`,
    ...(g.row.category ? { category: g.row.category } : {})
  }))
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

/** The monitored jobs of some tests that have something to draw, one per target (its first repetition), guests seen from their host first. */
export function monitorJobIds(run: RunDocument, testIds: ReadonlySet<string>, drawable: (job: Job) => boolean): string[] {
  const seen = new Set<string>()
  const choices = monitorJobs(run).filter((c) => testIds.has(c.job.testId) && drawable(c.job))
  // a guest's job seen from its physical host too first: that is the comparison the monitor exists for
  const hostSeen = (c: (typeof choices)[number]): number => (c.job.monitor!.some((m) => m.target.toLowerCase() !== c.job.target.toLowerCase()) ? 0 : 1)
  const ordered = [...choices].sort((a, b) => hostSeen(a) - hostSeen(b))
  const ids: string[] = []
  for (const choice of ordered) {
    const key = `${choice.job.testId}\u0000${choice.job.target}`
    if (seen.has(key)) continue
    seen.add(key)
    ids.push(choice.key)
  }
  return ids
}

/** A test's parameters as "key=value" words, in the order the plan gave them. */
export function paramsText(test: Pick<RunTest, 'params'>): string[] {
  return Object.entries(test.params).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
}

/** One command as run, with the jobs and the targets that ran it. */
export interface CommandUse {
  command: string
  /** "measured", "server" (a peer's iperf3 -s), or the step id. */
  step: string
  tests: string[]
  /** The targets' labels, in the run's order. */
  targets: string[]
  /** How many times it ran, on all those targets together. */
  times: number
}

/**
 * The exact commands of the run, each distinct command once with the targets that ran it (a
 * command that differs only by a target's work directory is two commands), in the order first run.
 */
export function commandList(run: RunDocument): CommandUse[] {
  const labelOf = (name: string): string => run.targets.find((t) => t.name === name)?.label ?? name
  const order = run.targets.map((t) => t.label)
  const commands = new Map<string, CommandUse>()
  for (const job of run.jobs) {
    for (const step of job.steps) {
      const target = labelOf(step.on)
      const key = `${step.measured ? 'measured' : step.id}\u0000${step.command}`
      let use = commands.get(key)
      if (!use) commands.set(key, (use = { command: step.command, step: step.measured ? 'measured' : step.id, tests: [], targets: [], times: 0 }))
      use.times++
      if (!use.tests.includes(job.title)) use.tests.push(job.title)
      if (!use.targets.includes(target)) use.targets.push(target)
    }
  }
  const rank = (label: string): number => (order.includes(label) ? order.indexOf(label) : order.length)
  return [...commands.values()].map((c) => ({ ...c, targets: [...c.targets].sort((a, b) => rank(a) - rank(b)) }))
}

/** A job's note with its figures taken out: warnings that differ only by a measured number are one note. */
function noteShape(text: string): string {
  return text.replace(/\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, '#')
}

/** A warning or failure of a test's jobs: said once, with the targets it came from and how many jobs said it. */
export interface TestNote {
  /** The first job's wording (its figures are that job's). */
  text: string
  sides: string[]
  kind: 'warning' | 'error'
  /** Jobs that said it (or the same with other figures). */
  jobs: number
  /** Other jobs said it with other figures. */
  varies: boolean
}

/** The warnings and errors of a test's jobs, each once (the same sentence with other figures too), with the targets they came from. */
export function testNotes(run: RunDocument, testId: string): TestNote[] {
  const notes = new Map<string, TestNote>()
  const add = (text: string, side: string, kind: 'warning' | 'error'): void => {
    const key = `${kind}\u0000${noteShape(text)}`
    const note = notes.get(key)
    if (note) {
      if (!note.sides.includes(side)) note.sides.push(side)
      note.jobs++
      if (text !== note.text) note.varies = true
    } else notes.set(key, { text, sides: [side], kind, jobs: 1, varies: false })
  }
  for (const job of run.jobs) {
    if (job.testId !== testId) continue
    for (const warning of job.warnings) add(warning, job.side, 'warning')
    if (job.status === 'failed' && job.error) add(job.error, job.side, 'error')
  }
  return [...notes.values()]
}

/** The measured pairs of a network matrix, in row order: "host → guest" and its figure. */
export function matrixPairs(grid: MatrixGrid): { pair: string; value: number; values: number[] }[] {
  return grid.machines.flatMap((source, r) =>
    grid.machines.flatMap((destination, c) => {
      const cell = r === c ? undefined : grid.cells[r]?.[c]
      return cell ? [{ pair: `${source} → ${destination}`, value: cell.value, values: cell.values }] : []
    })
  )
}

/** The block layer's activity during a test on one target, as one source saw it (the measured machine, or its physical host). */
export interface DiskActivityRow {
  test: string
  target: string
  /** "guest · vda, as the guest sees it" */
  source: string
  /** Medians over the test's monitored jobs on that target. */
  readBytesPerSecond: number
  writeBytesPerSecond: number
  readIops: number
  writeIops: number
  busyPct: number
  jobs: number
}

/**
 * The host monitor of some tests as figures: per test, target and source, the median of its jobs'
 * averages (a chart is drawn only where a job has a series or two sources to set side by side).
 */
export function diskActivityRows(run: RunDocument, testIds: ReadonlySet<string>): DiskActivityRow[] {
  const groups = new Map<string, { test: string; target: string; source: string; values: DiskActivity[] }>()
  for (const job of run.jobs) {
    if (!testIds.has(job.testId) || job.kind === 'warmup' || !job.monitor?.length) continue
    for (const source of monitorSources(run, job)) {
      const key = `${job.testId}\u0000${job.side}\u0000${source.name}`
      let group = groups.get(key)
      if (!group) groups.set(key, (group = { test: job.title, target: job.side, source: source.name, values: [] }))
      group.values.push(source.activity)
    }
  }
  return [...groups.values()].map((g) => {
    const mid = (pick: (a: DiskActivity) => number): number => median(g.values.map(pick)) ?? 0
    return {
      test: g.test,
      target: g.target,
      source: g.source,
      readBytesPerSecond: mid((a) => a.readBytesPerSecond),
      writeBytesPerSecond: mid((a) => a.writeBytesPerSecond),
      readIops: mid((a) => a.readIops),
      writeIops: mid((a) => a.writeIops),
      busyPct: mid((a) => a.busyPct),
      jobs: g.values.length
    }
  })
}
