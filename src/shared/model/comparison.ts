import type { MetricComparison, MetricRole, MetricSource } from './metric-def'
import type { Scenario } from './scenario'
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

export type FlagKind = 'faster-than-baseline' | 'noisy' | 'scenario-mismatch' | 'bandwidth-cap' | 'missing' | 'contaminated' | 'baseline-virtual' | 'same-machine'

export interface Flag {
  kind: FlagKind
  /** Plain language: what was seen, what it likely means, what to do. */
  message: string
  /**
   * The part of the message that explains the kind of flag for this row's category (why a guest
   * can look faster on storage, on the network, on the CPU), shown once per table in the terminal.
   */
  explanation?: string
}

/** What a compared cell means (src/shared/compare/verdict.ts decides it). */
export const VERDICTS = ['slower', 'faster', 'same', 'inconclusive'] as const
export type Verdict = (typeof VERDICTS)[number]

export interface VariantCell {
  variant: string
  stats?: SeriesStats
  /** Ratio rows: variant / baseline in % (baseline / variant for lower-is-better metrics). */
  relativePct?: number
  /** Ratio rows: 100 % - relative %. */
  overheadPct?: number
  /** Difference rows: variant - baseline (the two aggregates), in the row's unit. */
  difference?: number
  /**
   * The 95 % interval of relative % (ratio rows: of the ratio of the sides' geometric means) or of
   * the difference (difference rows), when both sides have 2+ values.
   */
  ci95?: [number, number]
  /**
   * What the interval stands on: the mean of the log ratios (ratio rows, oriented as relative %: 0
   * is 100 %) or of the differences, its standard error and degrees of freedom (pair by pair, or
   * Welch's). A release comparison combines two runs' estimates (src/shared/compare/release.ts).
   */
  estimate?: { mean: number; se: number; df: number }
  verdict: Verdict
  /** Why the verdict is what it is, in words (the interval and the margin). */
  verdictReason: string
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
  /** The figure the test exists to measure: it leads tables and summaries; the others are shown on demand. */
  primary: boolean
  /** `derived`: computed by VirtBench from what the tool printed (dd's time per block); absent when not known. */
  source?: MetricSource
  /** How the sides are compared: relative % (ratio) or variant - baseline (difference). */
  comparison: MetricComparison
  roles?: readonly MetricRole[]
  baseline?: SeriesStats
  cells: VariantCell[]
}

export interface Comparison {
  baseline: string
  variants: string[]
  rows: ComparisonRow[]
  /** Flags that concern a whole variant (a scenario mismatch, a shared machine), by variant label. */
  variantFlags: Record<string, Flag[]>
  /** Flags that concern the baseline itself (a virtual machine taken as the physical host). */
  baselineFlags: Flag[]
  /** The equivalence margin of ratios, in points of relative %: a cell whose whole interval is within 100 ± it is "same". */
  marginPct: number
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
  /**
   * When the job started (ms since the epoch): repetitions that ran interleaved are paired only
   * when both ran in one round, not when one was retried or resumed later.
   */
  startedAtMs?: number
}

export interface CompareInput {
  baseline: string
  variants: string[]
  tests: { id: string; title: string; aggregate: Aggregate }[]
  measurements: Measurement[]
  /** Declared-vs-detected differences per variant label. */
  mismatches?: Record<string, { message: string }[]>
  /** Flags about a whole variant (a guest on the baseline's own machine), by variant label. */
  variantFlags?: Record<string, Flag[]>
  /** Flags about the baseline (it is itself a virtual machine). */
  baselineFlags?: Flag[]
  /** What a metric of a test is (from the run's metric definitions); undefined when not known. */
  factsOf?: (testId: string, metric: string) => RowFacts | undefined
  /** The equivalence margin of ratios in points (default 3). */
  marginPct?: number
  /**
   * The repetitions ran interleaved (baseline and variants side by side, repetition after
   * repetition): intervals are computed pair by pair, so drift over the run cancels out.
   */
  paired?: boolean
  /** Each variant's declared scenario (the faster flag names the disk cache mode). */
  scenarios?: Record<string, Scenario>
  /**
   * Variants that are physical hosts themselves (another run's baseline in Compare runs): a faster
   * verdict there is a finding about two hosts, not a guest that beats its host, so it gets no flag.
   */
  hostColumns?: readonly string[]
  /** Per measurement key `${side}|${testId}|${repetition}`: the job was disturbed (load or steal), with what was seen. */
  contamination?: Record<string, string>
}

/** What the comparison needs to know of a metric (src/shared/run-metrics.ts gives it from a run). */
export interface RowFacts {
  category: MetricCategory
  primary: boolean
  source: MetricSource
  comparison: MetricComparison
  roles: readonly MetricRole[]
  /** The test's sender sets the pace (UDP at -b's rate): its bandwidth says nothing of a limit on the path. */
  setRate?: boolean
}
