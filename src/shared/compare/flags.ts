import type { ComparisonRow, Flag, SeriesStats } from '../model/comparison'
import type { MetricCategory } from '../model/sample'
import { isNetworkBandwidth, nearbyCapBits } from './bandwidth-cap'
import { bitRateText, pctText } from './message-text'

/** A relative % above this (faster than the baseline by more than 5 %) is suspicious. */
export const FASTER_THAN_BASELINE_PCT = 105
/** Repetitions whose coefficient of variation is above this many % are noisy. */
export const NOISY_CV_PCT = 10

/** What a flag's sentence needs to know about its row. */
export type RowContext = Pick<ComparisonRow, 'testTitle' | 'metric' | 'labels' | 'unit' | 'better' | 'category'>

/** "fio.read.iops (job=randread)": the metric and the labels that tell its row apart. */
export function metricName(row: RowContext): string {
  const labels = Object.entries(row.labels).map(([k, v]) => `${k}=${v}`)
  return labels.length > 0 ? `${row.metric} (${labels.join(', ')})` : row.metric
}

/** "fio.read.iops (job=randread) of 4k random read": the figure a sentence is about. */
export function figureName(row: RowContext): string {
  return `${metricName(row)} of ${row.testTitle}`
}

export function missingFlag(row: RowContext, side: string): Flag {
  return {
    kind: 'missing',
    message:
      `No successful repetition of ${row.testTitle} on ${side}: none gave ${metricName(row)}, because the ` +
      'repetitions failed, were not run, or did not measure it, so there is nothing to compare. ' +
      "Read the job's log for the reason, fix it, and retry the job."
  }
}

export function fasterThanBaselineFlag(
  row: RowContext,
  variant: string,
  baseline: string,
  relative: number,
  withinNoise: boolean | undefined
): Flag | undefined {
  if (relative <= FASTER_THAN_BASELINE_PCT) return undefined
  const seen =
    `${variant} reached ${pctText(relative)} of ${baseline} on ${figureName(row)}: ` +
    `faster than the baseline by more than ${FASTER_THAN_BASELINE_PCT - 100} %. `
  const noise = withinNoise ? ' The 95 % interval includes 100 %, so part of the gap may also be noise.' : ''
  return { kind: 'faster-than-baseline', message: seen + fasterCause(row.category) + noise }
}

function fasterCause(category: MetricCategory | undefined): string {
  switch (category) {
    case 'storage':
      return (
        'A guest cannot move data faster than the disk beneath it, so a cache most likely answered instead of ' +
        "the disk: the guest disk's writeback cache or the host's page cache (study 002 found that \"hosts lie to " +
        "qemu-based guests by default\"). To measure the disk itself, set the guest disk's cache mode to none " +
        "(cache=none), run the test with direct=1, and use a working set larger than the host's RAM."
      )
    case 'network':
      return (
        "The variant's path is probably shorter than the baseline's: traffic between guests on one host can stay " +
        "in the host's memory and never cross the wire, or the baseline crossed a slower link or a rate limit. " +
        'Make sure both measurements cross the same links, with no limit on either, then run again.'
      )
    default:
      return (
        'A guest rarely beats the machine it runs on, so the two runs probably differed: the baseline may have ' +
        'been busy or slowed down (other load, power saving, a lower CPU frequency), or the two did not run the ' +
        'same test. Check that both ran idle with the same parameters, then run again.'
      )
  }
}

/** One flag naming every noisy side of a cell, with its coefficient of variation. */
export function noisyFlag(row: RowContext, sides: { side: string; stats: SeriesStats | undefined }[]): Flag | undefined {
  const noisy = sides.filter(({ stats }) => stats?.cvPct !== undefined && stats.cvPct > NOISY_CV_PCT)
  if (noisy.length === 0) return undefined
  const seen = noisy
    .map(({ side, stats }) => `${pctText(stats?.cvPct ?? 0)} on ${side} (${stats?.n ?? 0} values)`)
    .join(' and ')
  return {
    kind: 'noisy',
    message:
      `The repetitions of ${figureName(row)} vary a lot: the coefficient of variation is ${seen}, above ` +
      `${NOISY_CV_PCT} %. Something disturbed the runs (other load on the target or its host, a test too short ` +
      'to settle, caches filling up), so the relative % is uncertain. Make sure the targets are idle, run the ' +
      'test longer or more times, and read the confidence interval before drawing a conclusion.'
  }
}

/** A flag for a side whose network bandwidth sits just below a round limit. */
export function bandwidthCapFlag(row: RowContext, side: string, stats: SeriesStats | undefined): Flag | undefined {
  if (!stats || !isNetworkBandwidth(row.unit, row.category)) return undefined
  const cap = nearbyCapBits(stats.value, row.unit)
  if (cap === undefined) return undefined
  const bits = row.unit === 'B/s' ? stats.value * 8 : stats.value
  return {
    kind: 'bandwidth-cap',
    message:
      `${side} measured ${bitRateText(bits)} on ${figureName(row)}, just below ${bitRateText(cap)}: the path is ` +
      'probably rate-limited rather than saturated (clouds limit guests and public addresses by default; study ' +
      "001's EIPs were limited to 30 Mbit/s). The figure shows the limit, not the network: lift the limit (for " +
      "example set the guest's or the EIP's bandwidth to unlimited on the cloud platform), then measure again."
  }
}

export function scenarioMismatchFlag(variant: string, mismatch: string): Flag {
  const sentence = /[.!?]$/.test(mismatch.trim()) ? mismatch.trim() : `${mismatch.trim()}.`
  return {
    kind: 'scenario-mismatch',
    message:
      `${sentence} The figures of ${variant} measure the setup the host reported, not the one the plan declares: ` +
      "correct the plan's scenario, or change the guest's configuration to match it, and run again."
  }
}
