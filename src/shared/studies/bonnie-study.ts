import { pctText } from '../compare/message-text'
import { formatValue } from '../format'
import type { Comparison, ComparisonRow, Verdict } from '../model/comparison'
import type { Job, RunDocument } from '../model/run'
import type { Unit } from '../model/sample'
import type { Aggregate } from '../model/tool-ids'

/**
 * Study 000's bonnie++ table: one row per machine compared (the baseline, usually the physical
 * host, then each guest), bonnie++'s own figures as its report lays them out (sequential output
 * per character, block and rewrite; sequential input per character and block; random seeks), each
 * with the %CPU bonnie++ printed beside it, and each guest's figure as a % of the baseline's.
 *
 * Every figure is the comparison's own (the test's aggregate of the runs that were timed); the %
 * is the comparison's relative %. Where a machine has no figure the table says why, from what the
 * run kept: bonnie++ printed `+++++` (the test took under 0.5 s, too fast to time: the parser's
 * warning on the job), the test was not run (`-f`, `-s 0`), or no job succeeded.
 */

/** bonnie++'s six I/O tests, in the order of its report, under its own column groups. */
export const BONNIE_STUDY_FIGURES = [
  { id: 'putc', group: 'Sequential output', words: 'per char' },
  { id: 'put_block', group: 'Sequential output', words: 'block' },
  { id: 'rewrite', group: 'Sequential output', words: 'rewrite' },
  { id: 'getc', group: 'Sequential input', words: 'per char' },
  { id: 'get_block', group: 'Sequential input', words: 'block' },
  { id: 'seeks', group: 'Random', words: 'seeks' }
] as const

export type BonnieFigureId = (typeof BONNIE_STUDY_FIGURES)[number]['id']

/** Why a machine has no figure for a test. */
export type BonnieMissing = 'too-fast' | 'not-run' | 'no-result'

export interface BonnieFigure {
  id: BonnieFigureId
  /** The test's aggregate of the timed runs, in base units (B/s, or op/s for seeks). */
  value?: number
  unit: Unit
  /** The aggregate of bonnie++'s %CPU for the same runs. */
  cpuPct?: number
  /** A guest's figure as a % of the baseline's (the comparison's relative %), and its verdict. */
  relativePct?: number
  verdict?: Verdict
  /** Why there is no figure. */
  missing?: BonnieMissing
  /** bonnie++ runs (one per `-x` repetition, in every job) that printed `+++++` for this test. */
  tooFastRuns: number
  /** bonnie++ runs of the machine's succeeded jobs. */
  runs: number
}

export interface BonnieMachineRow {
  machine: string
  role: 'baseline' | 'variant'
  figures: BonnieFigure[]
}

export interface BonnieStudy {
  testId: string
  testTitle: string
  aggregate: Aggregate
  baseline: string
  rows: BonnieMachineRow[]
  /** Why a figure is missing or partial, one sentence per reason and machine. */
  notes: string[]
}

/** The parser's warning for a test that printed `+++++` (src/main/tools/bonnie/parse.ts): which test, and in which runs. */
const TOO_FAST = /^bonnie\.(\w+) not measured(?: in (every repetition|repetitions? ([\d, ]+)))?: bonnie\+\+ printed \+\+\+\+\+/
/** …and for a field bonnie++ left empty. */
const NOT_RUN = /^bonnie\.(\w+) not run(?: in (every repetition|repetitions? ([\d, ]+)))? \(bonnie\+\+ left the field empty/

/** How many of a job's `runs` bonnie++ runs a warning names: every one, or the listed ones. */
function runsNamed(match: RegExpExecArray, runs: number): number {
  return match[3] === undefined ? runs : match[3].split(',').filter((s) => s.trim() !== '').length
}

/** bonnie++ runs of one job (`-x`). */
function runsOf(job: Job): number {
  const n = job.params['repetitions']
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 1
}

/** Tests the job's parameters told bonnie++ to skip (no warning says so). */
function skippedOnPurpose(job: Job): Set<string> {
  const size = job.params['fileSize']
  if (size === '0' || size === 0) return new Set(BONNIE_STUDY_FIGURES.map((f) => f.id))
  return new Set(job.params['skipPerChar'] === true ? ['putc', 'getc'] : [])
}

interface SideTally {
  jobs: number
  runs: number
  tooFast: Map<string, number>
  notRun: Map<string, number>
}

/** What one machine's succeeded jobs of a test printed: runs, and per test the runs too fast to time or not run. */
function tallyOf(jobs: readonly Job[]): SideTally {
  const tally: SideTally = { jobs: jobs.length, runs: 0, tooFast: new Map(), notRun: new Map() }
  const add = (map: Map<string, number>, id: string, n: number): void => void map.set(id, (map.get(id) ?? 0) + n)
  for (const job of jobs) {
    const runs = runsOf(job)
    tally.runs += runs
    for (const id of skippedOnPurpose(job)) add(tally.notRun, id, runs)
    for (const warning of job.warnings) {
      const fast = TOO_FAST.exec(warning)
      if (fast) add(tally.tooFast, fast[1]!, runsNamed(fast, runs))
      const empty = NOT_RUN.exec(warning)
      if (empty) add(tally.notRun, empty[1]!, runsNamed(empty, runs))
    }
  }
  return tally
}

function rowOf(comparison: Comparison, testId: string, metric: string): ComparisonRow | undefined {
  return comparison.rows.find((r) => r.testId === testId && r.metric === metric && Object.keys(r.labels).length === 0)
}

const UNITS: Record<BonnieFigureId, Unit> = { putc: 'B/s', put_block: 'B/s', rewrite: 'B/s', getc: 'B/s', get_block: 'B/s', seeks: 'op/s' }

function figureOf(comparison: Comparison, testId: string, id: BonnieFigureId, side: number, tally: SideTally): BonnieFigure {
  const rate = rowOf(comparison, testId, `bonnie.${id}`)
  const cpu = rowOf(comparison, testId, `bonnie.${id}.cpu`)
  // side -1 is the baseline, else the variant's index
  const stats = side < 0 ? rate?.baseline : rate?.cells[side]?.stats
  const cpuStats = side < 0 ? cpu?.baseline : cpu?.cells[side]?.stats
  const cell = side < 0 ? undefined : rate?.cells[side]
  const tooFastRuns = tally.tooFast.get(id) ?? 0
  const base = { id, unit: rate?.unit ?? UNITS[id], tooFastRuns, runs: tally.runs }
  if (!stats) {
    const missing: BonnieMissing = tally.jobs === 0 ? 'no-result' : tooFastRuns > 0 ? 'too-fast' : (tally.notRun.get(id) ?? 0) > 0 ? 'not-run' : 'no-result'
    return { ...base, missing }
  }
  return {
    ...base,
    value: stats.value,
    ...(cpuStats ? { cpuPct: cpuStats.value } : {}),
    ...(cell?.relativePct !== undefined ? { relativePct: cell.relativePct, verdict: cell.verdict } : {})
  }
}

/**
 * The bonnie++ tables of a run, one per bonnie++ test with a succeeded job on any machine compared,
 * from the run's jobs (what bonnie++ printed `+++++` for) and its comparison (every figure and %).
 */
export function bonnieStudies(run: RunDocument, comparison: Comparison): BonnieStudy[] {
  const sides = [comparison.baseline, ...comparison.variants]
  return run.tests.flatMap((test): BonnieStudy[] => {
    if (test.tool !== 'bonnie') return []
    const jobs = run.jobs.filter((j) => j.testId === test.id && j.kind === 'compare')
    const succeeded = jobs.filter((j) => j.status === 'succeeded')
    if (!succeeded.some((j) => sides.includes(j.side))) return []
    const rows = sides.map((machine, i): BonnieMachineRow => {
      const tally = tallyOf(succeeded.filter((j) => j.side === machine))
      return { machine, role: i === 0 ? 'baseline' : 'variant', figures: BONNIE_STUDY_FIGURES.map((f) => figureOf(comparison, test.id, f.id, i - 1, tally)) }
    })
    const failed = (machine: string): number => jobs.filter((j) => j.side === machine && j.status === 'failed').length
    return [{ testId: test.id, testTitle: test.title, aggregate: test.aggregate, baseline: comparison.baseline, rows, notes: notesOf(rows, failed) }]
  })
}

/** "Sequential output, block" */
export function figureWords(id: BonnieFigureId): string {
  const f = BONNIE_STUDY_FIGURES.find((x) => x.id === id)!
  return f.group === 'Random' ? 'Random seeks' : `${f.group}, ${f.words}`
}

const MISSING_TEXT: Record<BonnieMissing, string> = {
  'too-fast': '+++++ (too fast)',
  'not-run': 'not run',
  'no-result': 'not measured'
}

/** A figure as the table prints it: "1.15 MiB/s (98 %)" for a guest, the figure alone for the baseline, or why there is none. */
export function figureText(figure: BonnieFigure): string {
  if (figure.value === undefined) return MISSING_TEXT[figure.missing ?? 'no-result']
  const value = formatValue(figure.value, figure.unit)
  return figure.relativePct !== undefined ? `${value} (${pctText(figure.relativePct)})` : value
}

/** bonnie++'s %CPU of a figure: "69.0 %", or a dash where the figure is missing (bonnie++ prints +++ or nothing there). */
export function cpuText(figure: BonnieFigure): string {
  return figure.cpuPct !== undefined ? formatValue(figure.cpuPct, '%') : '–'
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** Why figures are missing or stand on fewer runs: grouped by machine and reason, in the table's order. */
function notesOf(rows: readonly BonnieMachineRow[], failed: (machine: string) => number): string[] {
  const notes: string[] = []
  for (const row of rows) {
    const runs = row.figures[0]!.runs
    const names = (figures: BonnieFigure[]): string => figures.map((f) => figureWords(f.id).toLowerCase()).join('; ')
    const tooFast = row.figures.filter((f) => f.missing === 'too-fast')
    for (const count of new Set(tooFast.map((f) => f.tooFastRuns))) {
      const these = tooFast.filter((f) => f.tooFastRuns === count)
      notes.push(
        `${row.machine}: ${names(these)}: bonnie++ printed +++++ in ${count === runs ? `every run (${runs})` : `${count} of ${plural(runs, 'run')} and timed none`}: ` +
          'the test took under 0.5 s, too fast to time, so there is no figure. A file of at least twice the RAM (-s) makes it measurable.'
      )
    }
    const partial = row.figures.filter((f) => f.value !== undefined && f.tooFastRuns > 0)
    for (const f of partial) {
      notes.push(`${row.machine}: ${figureWords(f.id).toLowerCase()}: bonnie++ printed +++++ in ${f.tooFastRuns} of ${plural(runs, 'run')}; the figure is of the ${runs - f.tooFastRuns} it timed.`)
    }
    const notRun = row.figures.filter((f) => f.missing === 'not-run')
    if (notRun.length > 0) notes.push(`${row.machine}: ${names(notRun)}: not run (bonnie++ left the field empty: -f skips the per-character tests, -s 0 all of these).`)
    const none = row.figures.filter((f) => f.missing === 'no-result')
    if (none.length > 0) {
      const jobs = failed(row.machine)
      const why = runs === 0 ? (jobs > 0 ? `its ${plural(jobs, 'job')} failed (see the jobs' errors)` : 'no job of this test ran on it') : 'no run gave a figure'
      notes.push(`${row.machine}: ${none.length === row.figures.length ? 'no figure' : names(none)}: not measured: ${why}.`)
    }
  }
  return notes
}

/** A figure's column in one line (the terminal): "out block", "seeks". */
export const SHORT_WORDS: Record<BonnieFigureId, string> = {
  putc: 'out per char',
  put_block: 'out block',
  rewrite: 'rewrite',
  getc: 'in per char',
  get_block: 'in block',
  seeks: 'seeks'
}

/** The columns in one line: the machine, then each figure and its %CPU. */
export function bonnieHeader(): string[] {
  return ['machine', ...BONNIE_STUDY_FIGURES.flatMap((f) => [SHORT_WORDS[f.id], '%CPU'])]
}

/** One machine's row as the texts of bonnieHeader's columns. */
export function bonnieRowCells(row: BonnieMachineRow): string[] {
  return [row.machine, ...row.figures.flatMap((f) => [figureText(f), cpuText(f)])]
}

const AGGREGATE_WORDS: Record<Aggregate, string> = { median: 'median', mean: 'mean', best: 'best' }

/** "bonnie++ 64 MiB, 2 runs: the median of the timed runs per machine; guests as % of host". */
export function bonnieTitle(study: BonnieStudy): string {
  return `${study.testTitle}: each figure the ${AGGREGATE_WORDS[study.aggregate]} of the runs bonnie++ timed; guests' figures as % of ${study.baseline}`
}

/**
 * The tables for a terminal (`virtbench run`): per bonnie++ test, bonnie++'s column groups over
 * its figures, one line per machine, then why a figure is missing.
 */
export function bonnieStudyText(studies: readonly BonnieStudy[]): string {
  return studies
    .map((study) => {
      const header = bonnieHeader()
      const body = study.rows.map(bonnieRowCells)
      const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
      const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
      const notes = study.notes.map((n) => `- ${n}`)
      return `${[bonnieTitle(study), line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line), ...notes].join('\n')}\n`
    })
    .join('\n')
}
