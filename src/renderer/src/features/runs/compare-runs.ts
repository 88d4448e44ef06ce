import type { CompareInput, Measurement } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import { comparisonInputOf } from '../../../../shared/run-comparison'
import { formatWhen } from './job-view'

/** One column of runs compared side by side: a target of one run. */
export interface RunColumn {
  runId: string
  /** The run's name, told apart from a same-named run by its date (then its id). */
  runName: string
  /** The target's label in that run. */
  label: string
  /** "<run name> · <target label>": the column's name in the table and charts. */
  name: string
  role: 'baseline' | 'variant'
}

/** Names for the runs that tell same-named runs apart. */
export function runDisplayNames(runs: readonly RunDocument[]): string[] {
  const count = (names: string[], name: string): number => names.filter((n) => n === name).length
  const plain = runs.map((r) => r.name)
  const dated = runs.map((r, i) => (count(plain, r.name) > 1 ? `${r.name} (${formatWhen(r.createdAt)})` : (plain[i] as string)))
  return runs.map((r, i) => (count(dated, dated[i] as string) > 1 ? `${dated[i]} [${r.id}]` : (dated[i] as string)))
}

/**
 * Runs side by side as one comparison: every run contributes its targets as columns named
 * "<run name> · <target label>", the first run's baseline is the reference (100 %), tests are
 * matched by id, and the measurements are each run's succeeded baseline-vs-variant jobs.
 */
export function compareInputOfRuns(runs: readonly RunDocument[]): { input: CompareInput; columns: RunColumn[] } {
  const names = runDisplayNames(runs)
  const columns: RunColumn[] = []
  const measurements: Measurement[] = []
  const tests: CompareInput['tests'] = []
  const mismatches: Record<string, { message: string }[]> = {}
  const variantFlags: NonNullable<CompareInput['variantFlags']> = {}
  const facts: NonNullable<CompareInput['factsOf']>[] = []

  runs.forEach((run, i) => {
    const runName = names[i] as string
    const own = comparisonInputOf(run)
    const rename = new Map<string, string>()
    for (const [label, role] of [[own.baseline, 'baseline'] as const, ...own.variants.map((v) => [v, 'variant'] as const)]) {
      const name = `${runName} · ${label}`
      rename.set(label, name)
      columns.push({ runId: run.id, runName, label, name, role })
    }
    for (const m of own.measurements) {
      const side = rename.get(m.side)
      if (side) measurements.push({ ...m, side })
    }
    for (const t of own.tests) if (!tests.some((known) => known.id === t.id)) tests.push(t)
    for (const [label, found] of Object.entries(own.mismatches ?? {})) {
      const side = rename.get(label)
      if (side) mismatches[side] = found
    }
    for (const [label, flags] of Object.entries(own.variantFlags ?? {})) {
      const side = rename.get(label)
      if (side) variantFlags[side] = flags
    }
    if (own.factsOf) facts.push(own.factsOf)
  })

  const [reference, ...others] = columns
  return {
    input: {
      baseline: reference?.name ?? '',
      variants: others.map((c) => c.name),
      tests,
      measurements,
      mismatches,
      variantFlags,
      // what a metric is, from the first run that defines it
      factsOf: (testId, metric) => facts.reduce<ReturnType<NonNullable<CompareInput['factsOf']>>>((found, f) => found ?? f(testId, metric), undefined),
      // the other runs' physical hosts: a faster host is a finding about two hosts, not a guest beating its host
      hostColumns: others.filter((c) => c.role === 'baseline').map((c) => c.name),
      marginPct: runs[0]?.plan.equivalenceMarginPct ?? 3
    },
    columns
  }
}

/** Tests that some of the runs did not run (their cells stay empty in those runs' columns). */
export function testsNotInEveryRun(runs: readonly RunDocument[]): { id: string; title: string; runs: string[] }[] {
  const names = runDisplayNames(runs)
  const all = new Map<string, string>()
  for (const run of runs) for (const t of run.tests) if (!all.has(t.id)) all.set(t.id, t.title)
  return [...all]
    .map(([id, title]) => ({ id, title, runs: runs.flatMap((r, i) => (r.tests.some((t) => t.id === id) ? [names[i] as string] : [])) }))
    .filter((t) => t.runs.length < runs.length)
}
