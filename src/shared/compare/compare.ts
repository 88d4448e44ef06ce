import { formatValue } from '../format'
import type { CompareInput, Comparison, ComparisonRow, Flag, RowFacts, SeriesStats, VariantCell } from '../model/comparison'
import type { MetricComparison } from '../model/metric-def'
import { isPartOfTotal } from '../model/sample'
import type { Aggregate } from '../model/tool-ids'
import {
  NOISY_CV_PCT,
  type RowContext,
  bandwidthCapFlag,
  contaminationFlag,
  fasterThanBaselineFlag,
  missingFlag,
  noisyFlag,
  scenarioMismatchFlag
} from './flags'
import { type SampleGroup, groupSamples, pairedValuesOf, valuesOf } from './group-samples'
import { CONFIDENCE_LEVEL_PCT, differenceEstimate, differenceInterval, pairedDifferenceInterval, pairedRatioInterval, ratioEstimate, ratioInterval } from './interval'
import { overheadPct, relativePct } from './relative'
import { seriesStats } from './stats'
import { DEFAULT_MARGIN_PCT, decideVerdict } from './verdict'

/** The method section of a report: how the figures, intervals and verdicts were computed. */
export function comparisonMethod(marginPct: number): string {
  return (
    "Each figure compared is the test's aggregate of its repetitions: the median unless the test asks for " +
    'the mean or the best repetition (the largest value where higher is better, the smallest where lower is ' +
    'better). Rates and times are compared as a ratio: relative % is variant / baseline x 100 where higher is ' +
    'better and baseline / variant x 100 where lower is better (latency), so 100 % means as good as the baseline ' +
    'and more is better; overhead is 100 % minus relative %. Counts and shares that can be zero on both sides ' +
    '(retransmits, lost packets, loss %, CPU %) are compared as a difference, variant minus baseline. ' +
    'When the repetitions ran interleaved (the baseline and the variant side by side, repetition after repetition), ' +
    "they are compared pair by pair: the interval's half-width is Student's t interval of the mean log ratio (or " +
    'difference) of the pairs, so slow drift that hit both sides of a pair cancels out (with three pairs or more, ' +
    'all of them run in one round, none retried later). Otherwise, ' +
    `the ${CONFIDENCE_LEVEL_PCT} % interval of a ratio is the relative % times and divided by the factor of Welch's t ` +
    "interval of the difference of the two sides' mean logarithms (the spread of the ratio of their geometric " +
    "means); of a difference, the difference plus and minus the half-width of Welch's t interval of the " +
    "difference of their means. Each interval is widened, where needed, to hold the figure plus and minus the " +
    "same half-width, so each figure lies inside its own interval and a verdict needs the figure and the means to agree. Welch's interval does not assume both " +
    'sides vary alike, and it is wide when repetitions are few, as it must be: two values a side give a t of 4.3. ' +
    'Every cell gets one verdict: same when the whole interval lies within 100 % ' +
    `± ${marginPct} % (a difference: within 0), or both sides measured one identical value; slower or faster when ` +
    'the whole interval lies on the worse or the better side of 100 % (of 0); inconclusive otherwise, and always ' +
    'when a side has fewer than two values (no interval). Only primary figures (what each test exists to measure) ' +
    'lead the tables and the counts; derived figures, computed by VirtBench from what the tool printed, are marked. ' +
    `Flags mark a variant that is faster than the baseline beyond noise, a coefficient of variation above ${NOISY_CV_PCT} %, ` +
    'a declared scenario that differs from the detected one, a network bandwidth held steady just below a round rate limit in two or more repetitions, a ' +
    'job disturbed by other load or steal time, a baseline that is itself virtual, two targets on one machine, and a ' +
    'side without any successful repetition.'
  )
}

/** The method with the default margin (for documents that do not say). */
export const COMPARISON_METHOD = comparisonMethod(DEFAULT_MARGIN_PCT)

interface RowSetting {
  title: string
  aggregate: Aggregate
}

function cellOf(
  input: CompareInput,
  group: SampleGroup,
  row: RowContext & { comparison: MetricComparison },
  setting: RowSetting,
  baselineStats: SeriesStats | undefined,
  variant: string,
  sharedFlags: { missing: Flag[]; mismatch: Flag[]; baselineCap: Flag[] }
): VariantCell {
  const values = valuesOf(group, variant)
  const stats = seriesStats(values, setting.aggregate, row.better)
  const flags: Flag[] = []
  if (!stats) flags.push(missingFlag(row, variant))
  flags.push(...sharedFlags.missing, ...sharedFlags.mismatch)
  const cell: Omit<VariantCell, 'verdict' | 'verdictReason'> = { variant, ...(stats ? { stats } : {}), flags }
  const baselineValues = baselineStats?.values ?? []
  // repetitions that ran side by side (an interleaved schedule) are compared pair by pair
  const pairs = input.paired ? pairedValuesOf(group, input.baseline, variant) : undefined
  let interval: [number, number] | undefined
  if (stats && baselineStats) {
    if (row.comparison === 'ratio') {
      const relative = relativePct(stats.value, baselineStats.value, row.better) ?? (stats.value === baselineStats.value ? 100 : undefined)
      if (relative !== undefined) {
        cell.relativePct = relative
        cell.overheadPct = overheadPct(relative)
      }
      interval =
        pairs
          ? pairedRatioInterval(pairs, row.better, CONFIDENCE_LEVEL_PCT, cell.relativePct)
          : ratioInterval(baselineValues, stats.values, row.better, CONFIDENCE_LEVEL_PCT, cell.relativePct)
    } else {
      cell.difference = stats.value - baselineStats.value
      interval =
        pairs
          ? pairedDifferenceInterval(pairs, CONFIDENCE_LEVEL_PCT, cell.difference)
          : differenceInterval(baselineValues, stats.values, CONFIDENCE_LEVEL_PCT, cell.difference)
    }
    if (interval) cell.ci95 = interval
    const estimate =
      row.comparison === 'ratio' ? ratioEstimate(baselineValues, stats.values, row.better, pairs) : differenceEstimate(baselineValues, stats.values, pairs)
    if (interval && estimate) cell.estimate = estimate
  }
  const identical = stats !== undefined && baselineStats !== undefined && [...baselineValues, ...stats.values].every((v) => v === baselineValues[0])
  const outcome = decideVerdict({
    comparison: row.comparison,
    better: row.better,
    nBaseline: baselineStats?.n ?? 0,
    nVariant: stats?.n ?? 0,
    identical,
    ...(interval ? { interval } : {}),
    marginPct: input.marginPct ?? DEFAULT_MARGIN_PCT,
    formatDifference: (v) => formatValue(v, row.unit)
  })
  if (outcome.verdict === 'faster' && cell.relativePct !== undefined && !input.hostColumns?.includes(variant)) {
    flags.push(fasterThanBaselineFlag(row, variant, input.baseline, cell.relativePct, input.scenarios?.[variant]))
  }
  const capped = bandwidthCapFlag(row, variant, stats)
  if (capped) flags.push(capped)
  flags.push(...sharedFlags.baselineCap)
  const noisy = noisyFlag(row, [
    { side: input.baseline, stats: baselineStats },
    { side: variant, stats }
  ])
  if (noisy) flags.push(noisy)
  const disturbed = contaminationFlag(row, [input.baseline, variant], group, input.contamination)
  if (disturbed) flags.push(disturbed)
  return { ...cell, verdict: outcome.verdict, verdictReason: outcome.reason }
}

/**
 * A metric the run does not define (a document built by hand) is compared as its unit suggests:
 * counts and shares as a difference, everything else as a ratio; it is never primary.
 */
function factsOf(input: CompareInput, group: SampleGroup): RowFacts | undefined {
  return input.factsOf?.(group.testId, group.metric)
}

function fallbackComparison(unit: SampleGroup['unit']): MetricComparison {
  return unit === 'count' || unit === '%' ? 'difference' : 'ratio'
}

function rowOf(input: CompareInput, group: SampleGroup, setting: RowSetting, variantFlags: Record<string, Flag[]>): ComparisonRow {
  const facts = factsOf(input, group)
  const comparison = facts?.comparison ?? fallbackComparison(group.unit)
  const row = {
    testTitle: setting.title,
    metric: group.metric,
    labels: group.labels,
    unit: group.unit,
    better: group.better,
    comparison,
    ...(facts ? { category: facts.category } : {}),
    ...(facts?.setRate ? { setRate: true } : {})
  }
  const baselineStats = seriesStats(valuesOf(group, input.baseline), setting.aggregate, group.better)
  const baselineCap = bandwidthCapFlag(row, input.baseline, baselineStats)
  const shared = {
    missing: baselineStats ? [] : [missingFlag(row, input.baseline)],
    baselineCap: baselineCap ? [baselineCap] : []
  }
  return {
    testId: group.testId,
    testTitle: setting.title,
    metric: group.metric,
    labels: group.labels,
    unit: group.unit,
    better: group.better,
    ...(facts ? { category: facts.category, source: facts.source } : {}),
    // a part of a total (one job, one stream, one iteration) never leads: its total does
    primary: (facts?.primary ?? false) && !isPartOfTotal(group.labels),
    comparison,
    ...(facts && facts.roles.length > 0 ? { roles: facts.roles } : {}),
    ...(baselineStats ? { baseline: baselineStats } : {}),
    cells: input.variants.map((variant) =>
      cellOf(input, group, row, setting, baselineStats, variant, { ...shared, mismatch: variantFlags[variant] ?? [] })
    )
  }
}

/**
 * Compares each variant with the baseline, metric by metric: the statistics of each side's
 * repetitions, the relative % (or the difference), its interval, one verdict, and flags that
 * explain what looks wrong. Pure: the same input always gives the same comparison.
 */
export function compare(input: CompareInput): Comparison {
  const tests = new Map(input.tests.map((test) => [test.id, test]))
  const variantFlags: Record<string, Flag[]> = {}
  for (const variant of input.variants) {
    variantFlags[variant] = [
      ...(input.mismatches?.[variant] ?? []).map((m) => scenarioMismatchFlag(variant, m.message)),
      ...(input.variantFlags?.[variant] ?? [])
    ]
  }
  const rows = groupSamples(input).map((group) => {
    const test = tests.get(group.testId)
    return rowOf(input, group, { title: test?.title ?? group.testId, aggregate: test?.aggregate ?? 'median' }, variantFlags)
  })
  const marginPct = input.marginPct ?? DEFAULT_MARGIN_PCT
  return {
    baseline: input.baseline,
    variants: [...input.variants],
    rows,
    variantFlags,
    baselineFlags: [...(input.baselineFlags ?? [])],
    marginPct,
    method: comparisonMethod(marginPct)
  }
}
