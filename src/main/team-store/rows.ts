import type { Comparison } from '../../shared/model/comparison'
import type { RunDocument } from '../../shared/model/run'

/**
 * A run document as the rows of the team store's tables (pure): each table's columns with their
 * PostgreSQL types, and one array per column, ready for one `INSERT ... SELECT FROM unnest(...)`
 * per table. The comparison is computed by src/shared/compare from the same run, never here.
 */

export interface TableRows {
  table: string
  /** Column name and the PostgreSQL type of its array parameter (`text`, `jsonb`...). */
  columns: readonly (readonly [string, string])[]
  /** One row per entry, values in column order. */
  rows: unknown[][]
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value))

export function targetRows(run: RunDocument): TableRows {
  return {
    table: 'targets',
    columns: [['name', 'text'], ['role', 'text'], ['label', 'text'], ['kind', 'text'], ['address', 'text'], ['scenario', 'jsonb'], ['environment', 'jsonb']],
    rows: run.targets.map((t) => [t.name, t.role, t.label, t.kind, t.address ?? null, json(t.scenario), json(run.environment[t.name])])
  }
}

export function testRows(run: RunDocument): TableRows {
  return {
    table: 'tests',
    columns: [['test_id', 'text'], ['title', 'text'], ['tool', 'text'], ['params', 'jsonb'], ['repetitions', 'integer'], ['aggregate', 'text'], ['primary_metrics', 'text']],
    // a text[] column goes through unnest as one JSON text per row (unnest flattens arrays of arrays)
    rows: run.tests.map((t) => [t.id, t.title, t.tool, json(t.params), t.repetitions, t.aggregate, t.primary ? json(t.primary) : null])
  }
}

export function jobRows(run: RunDocument): TableRows {
  return {
    table: 'jobs',
    columns: [['job_id', 'text'], ['test_id', 'text'], ['target', 'text'], ['side', 'text'], ['kind', 'text'], ['repetition', 'integer'], ['status', 'text'], ['started_at', 'timestamptz'], ['ended_at', 'timestamptz'], ['error', 'text']],
    rows: run.jobs.map((j) => [j.id, j.testId, j.target, j.side, j.kind, j.repetition, j.status, j.startedAt ?? null, j.endedAt ?? null, j.error ?? null])
  }
}

export function sampleRows(run: RunDocument): TableRows {
  return {
    table: 'samples',
    columns: [['job_id', 'text'], ['ordinal', 'integer'], ['metric', 'text'], ['value', 'double precision'], ['unit', 'text'], ['better', 'text'], ['labels', 'jsonb']],
    rows: run.jobs.flatMap((j) => j.samples.map((s, i) => [j.id, i, s.metric, s.value, s.unit, s.better, json(s.labels)]))
  }
}

export function comparisonRows(comparison: Comparison): TableRows {
  return {
    table: 'comparison_rows',
    columns: [
      ['row_no', 'integer'], ['variant', 'text'], ['test_id', 'text'], ['test_title', 'text'], ['metric', 'text'], ['labels', 'jsonb'], ['unit', 'text'],
      ['better', 'text'], ['category', 'text'], ['is_primary', 'boolean'], ['comparison', 'text'], ['baseline_value', 'double precision'],
      ['variant_value', 'double precision'], ['relative_pct', 'double precision'], ['overhead_pct', 'double precision'], ['difference', 'double precision'],
      ['ci_low', 'double precision'], ['ci_high', 'double precision'], ['n_baseline', 'integer'], ['n_variant', 'integer'], ['verdict', 'text'],
      ['verdict_reason', 'text'], ['flags', 'text']
    ],
    rows: comparison.rows.flatMap((row, rowNo) =>
      row.cells.map((c) => [
        rowNo, c.variant, row.testId, row.testTitle, row.metric, json(row.labels), row.unit, row.better, row.category ?? null, row.primary, row.comparison,
        row.baseline?.value ?? null, c.stats?.value ?? null, c.relativePct ?? null, c.overheadPct ?? null, c.difference ?? null,
        c.ci95?.[0] ?? null, c.ci95?.[1] ?? null, row.baseline?.n ?? null, c.stats?.n ?? null, c.verdict, c.verdictReason,
        json(c.flags.map((f) => f.kind))
      ])
    )
  }
}

/** The raw output files a run's steps point at, each once. */
export function rawFilesOf(run: RunDocument): string[] {
  const files = new Set<string>()
  for (const job of run.jobs) {
    for (const step of job.steps) {
      if (step.stdoutFile) files.add(step.stdoutFile)
      if (step.stderrFile) files.add(step.stderrFile)
    }
  }
  return [...files]
}

/** Columns whose text[] value is carried as JSON text (see testRows). */
const JSON_ARRAY_COLUMNS = new Set(['primary_metrics', 'flags'])

/**
 * `INSERT INTO virtbench.<table> (run_id, ...) SELECT $1, ... FROM unnest($2::t[], ...)`: one
 * statement for every row of a table, values only as parameters. Table and column names are
 * this module's constants, never input.
 */
export function insertStatement(rows: TableRows, runId: string): { text: string; values: unknown[] } {
  const names = rows.columns.map(([name]) => name)
  const arrays = rows.columns.map(([name, type], i) => `$${i + 2}::${JSON_ARRAY_COLUMNS.has(name) || type === 'jsonb' ? 'text' : type}[]`)
  const selected = rows.columns.map(([name, type]) =>
    JSON_ARRAY_COLUMNS.has(name)
      ? `CASE WHEN u.${name} IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(u.${name}::jsonb)) END`
       : type === 'jsonb' ? `u.${name}::jsonb` : `u.${name}`
  )
  return {
    text: `INSERT INTO virtbench.${rows.table} (run_id, ${names.join(', ')}) SELECT $1, ${selected.join(', ')} FROM unnest(${arrays.join(', ')}) AS u(${names.join(', ')})`,
    values: [runId, ...rows.columns.map((_, i) => rows.rows.map((r) => r[i]))]
  }
}
