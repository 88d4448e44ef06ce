import type { Aggregate } from './tool-ids'
import type { Better, MetricCategory, Sample, Unit } from './sample'

/**
 * The comparison of a run: for each test and metric, the baseline's figures and each variant's
 * relative % and overhead, with the spread of the repetitions and a confidence interval.
 * Computed by src/shared/compare/ from the samples of a run; never stored as the truth (the
 * samples are), so a report always shows what the samples say.
 */

/** What the repetitions of one metric on one target measured. */
export interface SeriesStats {
  /** The values of the repetitions, in run order (base units). */
  values: number[]
  /** The figure compared: the aggregate of `values`. */
  value: number
  aggregate: Aggregate
  n: number
  median: number
  mean: number
  min: number
  max: number
  /** Sample standard deviation (n - 1); undefined with one value. */
  stddev?: number
  /** stddev / mean, in %; undefined with one value or a zero mean. */
  cvPct?: number
}

export type FlagKind = 'faster-than-baseline' | 'noisy' | 'scenario-mismatch' | 'bandwidth-cap' | 'missing'

export interface Flag {
  kind: FlagKind
  /** Plain language: what was seen, what it likely means, what to do. */
  message: string
}

export interface VariantCell {
  variant: string
  stats?: SeriesStats
  /** variant / baseline in % (baseline / variant for lower-is-better metrics). */
  relativePct?: number
  /** 100 % - relative %. */
  overheadPct?: number
  /** 95 % bootstrap confidence interval of relative %, when both sides have 2+ repetitions. */
  ci95?: [number, number]
  /** The interval contains 100 %: the difference is not distinguishable from noise. */
  withinNoise?: boolean
  flags: Flag[]
}

export interface ComparisonRow {
  testId: string
  testTitle: string
  metric: string
  /** Labels that tell this row apart within a metric (job, direction...), without repetition. */
  labels: Record<string, string>
  unit: Unit
  better: Better
  category?: MetricCategory
  baseline?: SeriesStats
  cells: VariantCell[]
}

export interface Comparison {
  baseline: string
  variants: string[]
  rows: ComparisonRow[]
  /** Flags that concern a whole variant (a scenario mismatch), by variant label. */
  variantFlags: Record<string, Flag[]>
  /** How the interval was computed, for the report's method section. */
  method: string
}

/** One measurement: the samples of one repetition of one test on one target. */
export interface Measurement {
  /** The baseline's or a variant's label. */
  side: string
  testId: string
  repetition: number
  samples: Sample[]
}

export interface CompareInput {
  baseline: string
  variants: string[]
  tests: { id: string; title: string; aggregate: Aggregate }[]
  measurements: Measurement[]
  /** Declared-vs-detected differences per variant label. */
  mismatches?: Record<string, { message: string }[]>
  /** Category of a metric name, when known (from the tools' metric definitions). */
  categoryOf?: (metric: string) => MetricCategory | undefined
}
