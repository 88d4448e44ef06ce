import type { CompareInput, Comparison, ComparisonRow, Flag, SeriesStats, VariantCell } from '../model/comparison'
import type { Aggregate } from '../model/tool-ids'
import { BOOTSTRAP_RESAMPLES, CONFIDENCE_PCT, bootstrapRelativeInterval } from './bootstrap'
import {
  FASTER_THAN_BASELINE_PCT,
  NOISY_CV_PCT,
  type RowContext,
  bandwidthCapFlag,
  fasterThanBaselineFlag,
  missingFlag,
  noisyFlag,
  scenarioMismatchFlag
} from './flags'
import { type SampleGroup, groupSamples, valuesOf } from './group-samples'
import { overheadPct, relativePct } from './relative'
import { seriesStats } from './stats'

/** The method section of a report: how the figures and intervals were computed. */
export const COMPARISON_METHOD =
  "Each figure compared is the test's aggregate of its repetitions: the median unless the test asks for " +
  'the mean or the best repetition (the largest value where higher is better, the smallest where lower is ' +
  'better). Relative % is variant / baseline x 100 where higher is better and baseline / variant x 100 where ' +
  'lower is better (latency), so 100 % means as good as the baseline and more is better; overhead is 100 % ' +
  `minus relative %. The ${CONFIDENCE_PCT} % confidence interval of the relative % is a percentile bootstrap ` +
  "over repetitions: each side's values are resampled with replacement, independently, " +
  `${BOOTSTRAP_RESAMPLES} times; each resample's two aggregates give one relative %, and the interval runs ` +
  `from the 2.5th to the 97.5th percentile of those ${BOOTSTRAP_RESAMPLES} (linear interpolation). The draws ` +
  'come from a xorshift32 generator seeded with the FNV-1a hash of the row and the variant, so the same ' +
  'samples always give the same interval. An interval is given only when both sides have at least two values ' +
  'and every resample has a ratio; a result is within noise when its interval contains 100 %. Few repetitions ' +
  'give a coarse interval (three values can be resampled only ten ways), so read it as a guide, not a proof. ' +
  `Flags mark a variant faster than the baseline by more than ${FASTER_THAN_BASELINE_PCT - 100} %, a ` +
  `coefficient of variation above ${NOISY_CV_PCT} %, a declared scenario that differs from the detected one, ` +
  'a network bandwidth just below a round rate limit, and a side without any successful repetition.'

interface RowSetting {
  title: string
  aggregate: Aggregate
}

function cellOf(
  input: CompareInput,
  group: SampleGroup,
  row: RowContext,
  setting: RowSetting,
  baselineStats: SeriesStats | undefined,
  variant: string,
  sharedFlags: { missing: Flag[]; mismatch: Flag[]; baselineCap: Flag[] }
): VariantCell {
  const cell: VariantCell = { variant, flags: [] }
  const stats = seriesStats(valuesOf(group, variant), setting.aggregate, row.better)
  if (stats) cell.stats = stats
  else cell.flags.push(missingFlag(row, variant))
  cell.flags.push(...sharedFlags.missing, ...sharedFlags.mismatch)
  if (stats && baselineStats) {
    const relative = relativePct(stats.value, baselineStats.value, row.better)
    if (relative !== undefined) {
      cell.relativePct = relative
      cell.overheadPct = overheadPct(relative)
      const interval = bootstrapRelativeInterval({
        baseline: baselineStats.values,
        variant: stats.values,
        aggregate: setting.aggregate,
        better: row.better,
        seedKey: JSON.stringify([group.key, variant])
      })
      if (interval) {
        cell.ci95 = interval
        cell.withinNoise = interval[0] <= 100 && 100 <= interval[1]
      }
      const faster = fasterThanBaselineFlag(row, variant, input.baseline, relative, cell.withinNoise)
      if (faster) cell.flags.push(faster)
    }
  }
  const capped = bandwidthCapFlag(row, variant, stats)
  if (capped) cell.flags.push(capped)
  cell.flags.push(...sharedFlags.baselineCap)
  const noisy = noisyFlag(row, [
    { side: input.baseline, stats: baselineStats },
    { side: variant, stats }
  ])
  if (noisy) cell.flags.push(noisy)
  return cell
}

function rowOf(input: CompareInput, group: SampleGroup, setting: RowSetting, variantFlags: Record<string, Flag[]>): ComparisonRow {
  const category = input.categoryOf?.(group.metric)
  const row: RowContext = {
    testTitle: setting.title,
    metric: group.metric,
    labels: group.labels,
    unit: group.unit,
    better: group.better,
    ...(category ? { category } : {})
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
    ...(category ? { category } : {}),
    ...(baselineStats ? { baseline: baselineStats } : {}),
    cells: input.variants.map((variant) =>
      cellOf(input, group, row, setting, baselineStats, variant, { ...shared, mismatch: variantFlags[variant] ?? [] })
    )
  }
}

/**
 * Compares each variant with the baseline, metric by metric: the statistics of each side's
 * repetitions, the relative % and overhead, a bootstrap interval of the relative %, and flags
 * that explain what looks wrong. Pure: the same input always gives the same comparison.
 */
export function compare(input: CompareInput): Comparison {
  const tests = new Map(input.tests.map((test) => [test.id, test]))
  const variantFlags: Record<string, Flag[]> = {}
  for (const variant of input.variants) {
    variantFlags[variant] = (input.mismatches?.[variant] ?? []).map((m) => scenarioMismatchFlag(variant, m.message))
  }
  const rows = groupSamples(input).map((group) => {
    const test = tests.get(group.testId)
    return rowOf(input, group, { title: test?.title ?? group.testId, aggregate: test?.aggregate ?? 'median' }, variantFlags)
  })
  return { baseline: input.baseline, variants: [...input.variants], rows, variantFlags, method: COMPARISON_METHOD }
}
