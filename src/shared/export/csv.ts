import type { Job, RunDocument, RunTarget } from '../model/run'
import type { Labels } from '../model/sample'
import { expandSweep, sweptFactors } from '../sweep/expand'
import { redactRun, type Redaction } from './redact'

/**
 * A run as tidy CSV (docs/export.md): one measured value per row, RFC 4180 (comma, CRLF,
 * quotes where needed), header first. Values are written in their base unit exactly as stored,
 * so the file parses back to the same doubles. Pure: the app, the CLI and the report share it.
 */

export const CSV_COLUMNS = [
  'run_id',
  'run_name',
  'target',
  'role',
  'side',
  'scenario_hypervisor',
  'scenario_storage',
  'scenario_cache',
  'scenario_queues',
  'scenario_bus',
  'scenario_network',
  'scenario_os',
  'job_kind',
  'peer',
  'test_id',
  'test_title',
  'tool',
  'metric',
  'unit',
  'better',
  'labels',
  'repetition',
  'value'
] as const
export type CsvColumn = (typeof CSV_COLUMNS)[number]

export interface RunCsvOptions {
  /**
   * Leave out host names, addresses and logins: the rows are written from `redactRun(run).run`.
   * Give `true`, or the `Redaction` that `redactRun` returned (redacting a redacted run changes
   * nothing, so either way the file holds no original host name or address).
   */
  redact?: boolean | Redaction
}

/** The sample label that numbers repetitions; the `repetition` column carries the job's. */
const REPETITION_LABEL = 'repetition'

/** The whole CSV file: header and one row per sample of every succeeded job, CRLF line ends. */
export function runCsv(run: RunDocument, options: RunCsvOptions = {}): string {
  const source = options.redact ? redactRun(run).run : run
  return formatCsv([[...CSV_COLUMNS], ...runCsvRows(source)])
}

/**
 * The data rows, before quoting: jobs in run order (succeeded only), samples in job order. Text
 * fields carry the formula guard (`guardCsvText`); the value column is the number as stored.
 */
export function runCsvRows(run: RunDocument): string[][] {
  const targets = new Map(run.targets.map((t) => [t.name, t]))
  const rows: string[][] = []
  for (const job of run.jobs) {
    if (job.status !== 'succeeded') continue
    const jobText = jobColumns(run, job, targets.get(job.target))
    for (const sample of job.samples) {
      const text = [...jobText, sample.metric, sample.unit, sample.better, formatCsvLabels(sample.labels)]
      rows.push([...text.map(guardCsvText), String(job.repetition), csvNumber(sample.value)])
    }
  }
  return rows
}

/** The columns a sweep's CSV puts before a run's own (then one `factor_<name>` per swept factor). */
export const SWEEP_CSV_COLUMNS = ['sweep_id', 'sweep_name', 'step', 'combination'] as const

/** A sweep for its CSV: its document as runs:get gives it (the sweep's id, name and plan) and its steps, each with its run. */
export interface SweepCsvInput {
  run: RunDocument
  steps: readonly { label: string; dir: string; run?: RunDocument }[]
}

/**
 * A sweep as tidy CSV (docs/export.md#csv-of-a-sweep): the sweep's id and name, the step's folder,
 * its combination and one column per swept factor with the combination's value, then the run CSV's
 * own columns, one row per sample of every succeeded job of every step, steps in order. A step
 * that never started has no rows. With `redact`, each step's run is redacted as `runCsv` does.
 */
export function sweepCsv(sweep: SweepCsvInput, options: RunCsvOptions = {}): string {
  const plan = sweep.run.plan.sweep
  if (!plan) throw new Error(`${sweep.run.name} is not a sweep: its plan has no sweep`)
  const factors = sweptFactors(plan)
  const values = new Map(expandSweep(plan).map((v) => [v.label, v.values]))
  const name = options.redact ? redactRun(sweep.run).run.name : sweep.run.name
  const rows = sweep.steps.flatMap((step) => {
    if (!step.run) return []
    const own = values.get(step.label) ?? {}
    const lead = [sweep.run.id, name, step.dir, step.label, ...factors.map((f) => (own[f] === undefined ? '' : String(own[f])))].map(guardCsvText)
    return runCsvRows(options.redact ? redactRun(step.run).run : step.run).map((row) => [...lead, ...row])
  })
  return formatCsv([[...SWEEP_CSV_COLUMNS, ...factors.map((f) => `factor_${f}`), ...CSV_COLUMNS], ...rows])
}

/** The text columns from run_id to tool. */
function jobColumns(run: RunDocument, job: Job, target: RunTarget | undefined): string[] {
  const s = target?.scenario ?? {}
  return [
    run.id,
    run.name,
    job.target,
    target?.role ?? '',
    job.side,
    s.hypervisor ?? '',
    s.storage ?? '',
    s.cache ?? '',
    s.queues === undefined ? '' : String(s.queues),
    s.bus ?? '',
    s.network ?? '',
    s.os ?? '',
    job.kind,
    job.peer ?? '',
    job.testId,
    job.title,
    job.tool
  ]
}

/**
 * A number so that it parses back to the identical double: `String()` gives the shortest text
 * that round-trips; -0 is written as "-0" (String gives "0"). Not-finite values (which a valid
 * run never holds) are left empty rather than written as a number nobody measured.
 */
export function csvNumber(value: number): string {
  if (!Number.isFinite(value)) return ''
  return Object.is(value, -0) ? '-0' : String(value)
}

// ---------------------------------------------------------------------------------------------
// Labels

const LABEL_ESCAPES: Record<string, string> = { '%': '%25', ';': '%3B', '=': '%3D' }

function escapeLabelPart(text: string): string {
  return text.replace(/[%;=]/g, (c) => LABEL_ESCAPES[c] ?? c)
}

function unescapeLabelPart(text: string): string {
  return text.replace(/%(25|3B|3D)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/**
 * `key=value` pairs joined by `;`, keys sorted, without the repetition label. A `%`, `;` or `=`
 * inside a key or value is written `%25`, `%3B`, `%3D`, so `parseCsvLabels` gives back the labels.
 */
export function formatCsvLabels(labels: Labels): string {
  return Object.entries(labels)
    .filter(([key]) => key !== REPETITION_LABEL)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${escapeLabelPart(key)}=${escapeLabelPart(value)}`)
    .join(';')
}

/** The labels of a `labels` field (after `unguardCsvText`). */
export function parseCsvLabels(field: string): Labels {
  if (field === '') return {}
  // fromEntries defines own properties, so a key such as __proto__ stays a plain label
  return Object.fromEntries(
    field.split(';').map((pair) => {
      const at = pair.indexOf('=')
      return at < 0 ? [unescapeLabelPart(pair), ''] : [unescapeLabelPart(pair.slice(0, at)), unescapeLabelPart(pair.slice(at + 1))]
    })
  )
}

// ---------------------------------------------------------------------------------------------
// Spreadsheet formula guard

/** What a spreadsheet may take for the start of a formula. */
const FORMULA_START = /^'*[=+\-@\t\r]/
const GUARDED = /^'+[=+\-@\t\r]/

/**
 * A text field that a spreadsheet could run as a formula (it starts with `=`, `+`, `-`, `@`, a
 * tab or a carriage return) gets a leading `'`. A field that already starts with quote marks
 * followed by one of those gets one more, so `unguardCsvText` can always undo the guard.
 */
export function guardCsvText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text
}

/** The text as it was before `guardCsvText`. */
export function unguardCsvText(field: string): string {
  return GUARDED.test(field) ? field.slice(1) : field
}

// ---------------------------------------------------------------------------------------------
// RFC 4180 writing and reading

const NEEDS_QUOTES = /[",\r\n]/

export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Records as RFC 4180 text: fields quoted when they hold a comma, quote, CR or LF; CRLF after every record. */
export function formatCsv(records: readonly (readonly string[])[]): string {
  return records.map((record) => `${record.map(csvField).join(',')}\r\n`).join('')
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    problem: string
  ) {
    super(`CSV line ${line}, column ${column}: ${problem}`)
    this.name = 'CsvSyntaxError'
  }
}

/**
 * Reads RFC 4180 text into records of fields (no type conversion, no formula unguarding). Line
 * ends may be CRLF, LF or CR; a final line end does not start an empty record; a UTF-8 byte order
 * mark at the start is skipped. Malformed text (a quote inside an unquoted field, text after a
 * closing quote, a quoted field never closed) throws a CsvSyntaxError naming the line and column.
 */
export function parseCsv(text: string): string[][] {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let i = 0
  let line = 1
  let lineStart = 0
  const fail = (at: number, problem: string): never => {
    throw new CsvSyntaxError(line, at - lineStart + 1, problem)
  }
  const endRecord = (): void => {
    record.push(field)
    records.push(record)
    record = []
    field = ''
  }
  /** Skips the line end at `i` (CRLF, LF or CR) and returns the index after it. */
  const skipLineEnd = (at: number): number => {
    const next = source[at] === '\r' && source[at + 1] === '\n' ? at + 2 : at + 1
    line++
    lineStart = next
    return next
  }

  while (i < source.length) {
    // at the start of a field
    if (source[i] === '"') {
      const opened = { line, column: i - lineStart + 1 }
      i++
      for (;;) {
        if (i >= source.length) throw new CsvSyntaxError(opened.line, opened.column, 'a quoted field is not closed (a " is missing)')
        const c = source[i]
        if (c === '"') {
          if (source[i + 1] === '"') {
            field += '"'
            i += 2
            continue
          }
          i++
          break
        }
        if (c === '\r' || c === '\n') {
          field += c === '\r' && source[i + 1] === '\n' ? '\r\n' : c
          i = skipLineEnd(i)
          continue
        }
        field += c
        i++
      }
      const after = source[i]
      if (after !== undefined && after !== ',' && after !== '\r' && after !== '\n') {
        fail(i, `${JSON.stringify(after)} follows a closing quote; a quoted field ends at a comma or the end of the line`)
      }
    } else {
      while (i < source.length && source[i] !== ',' && source[i] !== '\r' && source[i] !== '\n') {
        if (source[i] === '"') fail(i, 'a field that holds a quote must be quoted, with the quote doubled ("")')
        field += source[i]
        i++
      }
    }
    // after a field
    if (i >= source.length) {
      endRecord()
      break
    }
    if (source[i] === ',') {
      record.push(field)
      field = ''
      i++
      if (i >= source.length) endRecord()
      continue
    }
    endRecord()
    i = skipLineEnd(i)
  }
  return records
}
