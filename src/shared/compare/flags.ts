import type { ComparisonRow, Flag, FlagKind, SeriesStats } from '../model/comparison'
import type { MetricCategory } from '../model/sample'
import type { Scenario } from '../model/scenario'
import { capEvidenceText, readCap } from './bandwidth-cap'
import type { SampleGroup } from './group-samples'
import { bitRateText, pctText } from './message-text'

/** A heading for each kind of flag (the screens, the CLI's notes and the PDF use the same). */
export const FLAG_TITLES: Readonly<Record<FlagKind, string>> = {
  'faster-than-baseline': 'Faster than the baseline',
  noisy: 'Noisy repetitions',
  'scenario-mismatch': 'Declared setup differs from the detected one',
  'bandwidth-cap': 'Probably rate-limited',
  missing: 'Not measured',
  contaminated: 'Disturbed repetitions',
  'baseline-virtual': 'The baseline is a virtual machine',
  'same-machine': 'One machine measured twice'
}

/** Repetitions whose coefficient of variation is above this many % are noisy. */
export const NOISY_CV_PCT = 10

/** What a flag's sentence needs to know about its row. */
export type RowContext = Pick<ComparisonRow, 'testTitle' | 'metric' | 'labels' | 'unit' | 'better' | 'category'> & {
  /** The test's sender sets the pace (UDP): no cap is read from its bandwidth. */
  setRate?: boolean
}

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
  const explanation =
    'The repetitions failed, were not run, or did not measure it, so there is nothing to compare: the table ' +
    "shows no value, never a zero. Read the job's log for the reason, fix it, and retry the job."
  return {
    kind: 'missing',
    message: `No successful repetition of ${row.testTitle} on ${side} gave ${metricName(row)}. ${explanation}`,
    explanation
  }
}

/**
 * A variant the verdict found faster than the baseline (its whole interval above 100 %): a guest
 * rarely beats the machine it runs on, so the flag says what most likely made it look faster, for
 * the row's category. Never on the baseline itself, never inside noise: only a "faster" verdict
 * raises it.
 */
export function fasterThanBaselineFlag(row: RowContext, variant: string, baseline: string, relative: number, scenario?: Scenario): Flag {
  const explanation = fasterCause(row.category, scenario)
  const seen = `${variant} reached ${pctText(relative)} of ${baseline} on ${figureName(row)}: faster than the baseline beyond noise. `
  return { kind: 'faster-than-baseline', message: seen + explanation, explanation }
}

/**
 * Why a guest can look faster than its host, by what the figure measures and, for storage, the
 * guest disk's declared cache mode (one source for the UI, the CLI and the PDF).
 */
export function fasterCause(category: MetricCategory | undefined, scenario?: Scenario): string {
  switch (category) {
    case 'storage': {
      const cache = scenario?.cache
      const likely =
        cache === 'writeback' || cache === 'unsafe'
          ? `The guest disk is cache=${cache}, so the host's page cache most likely answered instead of the disk.`
          : cache === 'none' || cache === 'directsync'
            ? `The guest disk is declared cache=${cache}, so the host's page cache should be out of the way: the guest's own page ` +
              'cache (a test without direct=1) or a working set small enough to stay in memory is the more likely cause.'
            : "A cache most likely answered instead of the disk: the guest disk's writeback cache or the host's page cache " +
              '(study 002 found that "hosts lie to qemu-based guests by default"), or the guest\'s own page cache.'
      return (
        `A guest cannot move data faster than the disk beneath it. ${likely} To measure the disk itself, set the guest ` +
        "disk's cache mode to none (cache=none), run the test with direct=1, and use a working set larger than the host's RAM."
      )
    }
    case 'network':
      return (
        "The variant's path is probably shorter than the baseline's, or has offloads the baseline's lacks: traffic " +
        "between guests on one host can stay in the host's memory and never cross the wire, or the baseline crossed " +
        'a slower link or a rate limit. Make sure both measurements cross the same links, with no limit on either, then run again.'
      )
    case 'cpu':
    case 'memory':
      return (
        'A guest rarely computes faster than the machine it runs on, so the two runs probably differed: the ' +
        'baseline may have been busy or slowed down (other load on the host, power saving or a lower CPU ' +
        'frequency, turbo that one side got and the other did not), or the two did not run the same test. ' +
        'Check that both ran idle with the same parameters and CPU governor, then run again.'
      )
    default:
      return (
        'A guest rarely beats the machine it runs on, so the two runs probably differed: the baseline may have ' +
        'been busy or slowed down, or the two did not run the same test. Check that both ran idle with the same ' +
        'parameters, then run again.'
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
  const explanation =
    'Something disturbed the runs (other load on the target or its host, a test too short to settle, caches ' +
    'filling up), so the relative % is uncertain. Make sure the targets are idle, run the test longer or more ' +
    'times, and read the verdict before drawing a conclusion.'
  return {
    kind: 'noisy',
    message: `The repetitions of ${figureName(row)} vary a lot: the coefficient of variation is ${seen}, above ${NOISY_CV_PCT} %. ${explanation}`,
    explanation
  }
}

/**
 * A flag for a side whose network bandwidth is held just below a round limit: every repetition
 * there, as steady as a limit holds it (readCap, the one rule of the check). A single repetition
 * raises none: it cannot tell a limit from a coincidence.
 */
export function bandwidthCapFlag(row: RowContext, side: string, stats: SeriesStats | undefined): Flag | undefined {
  const reading = stats && !row.setRate ? readCap(stats.values, row.unit, row.category) : undefined
  if (!stats || reading?.kind !== 'held') return undefined
  const bits = row.unit === 'B/s' ? stats.value * 8 : stats.value
  const explanation =
    "The figure shows the limit, not the network: lift the limit (for example set the guest's or the EIP's " +
    'bandwidth to unlimited on the cloud platform), then measure again.'
  return {
    kind: 'bandwidth-cap',
    message:
      `${side} measured ${bitRateText(bits)} on ${figureName(row)}, just below ${bitRateText(reading.capBits)}: the path is ` +
      `probably rate-limited rather than saturated (${capEvidenceText(reading, row.unit, 'repetitions')}, as steady as a limit ` +
      `holds them; clouds limit guests and public addresses by default; study 001's EIPs were limited to 30 Mbit/s). ${explanation}`,
    explanation
  }
}

export function scenarioMismatchFlag(variant: string, mismatch: string): Flag {
  const sentence = /[.!?]$/.test(mismatch.trim()) ? mismatch.trim() : `${mismatch.trim()}.`
  const explanation =
    `The figures of ${variant} measure the setup the host reported, not the one the plan declares: correct the plan's ` +
    "scenario, or change the guest's configuration to match it, and run again."
  return { kind: 'scenario-mismatch', message: `${sentence} ${explanation}`, explanation }
}

/** Disturbed repetitions named one by one in a flag; beyond this they are counted. */
const CONTAMINATION_LISTED = 3

/**
 * The repetitions of a cell that ran while something else loaded the machine or the hypervisor
 * stole CPU time (recorded per job by the engine), with what was seen.
 */
export function contaminationFlag(
  row: RowContext,
  sides: readonly string[],
  group: SampleGroup,
  contamination: Record<string, string> | undefined
): Flag | undefined {
  if (!contamination) return undefined
  const seen: string[] = []
  const perSide: string[] = []
  let total = 0
  for (const side of sides) {
    const repetitions = [...new Set((group.bySide.get(side) ?? []).map((e) => e.repetition))].sort((a, b) => a - b)
    total += repetitions.length
    let disturbed = 0
    for (const repetition of repetitions) {
      const note = contamination[`${side}|${group.testId}|${repetition}`]
      if (!note) continue
      disturbed++
      seen.push(`repetition ${repetition} on ${side}: ${note}`)
    }
    if (disturbed > 0) perSide.push(`${disturbed} on ${side}`)
  }
  if (seen.length === 0) return undefined
  const explanation =
    'Other work on the machine or its host took CPU time while these repetitions measured, so they may be slower ' +
    'than the machine is. Stop what else runs there (or measure when the host is quiet), then retry those jobs.'
  // a few are named one by one; many are counted, with the first as an example (each job keeps its own note)
  const what =
    seen.length <= CONTAMINATION_LISTED
      ? seen.join('; ')
      : `${seen.length} of ${total} repetitions (${perSide.join(', ')}), the first ${seen[0]}`
  return { kind: 'contaminated', message: `${figureName(row)} was disturbed: ${what}. ${explanation}`, explanation }
}
