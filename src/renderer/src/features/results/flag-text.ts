import type { Flag, FlagKind } from '../../../../shared/model/comparison'
import type { MetricCategory } from '../../../../shared/model/sample'
import type { Scenario } from '../../../../shared/model/scenario'

/** What a flag's explanation may know about where it appears. */
export interface FlagContext {
  /** The metric's category (storage, network, cpu, memory). */
  category?: MetricCategory
  /** The metric name, to tell reads from writes. */
  metric?: string
  /** The declared scenario of the variant the flag concerns. */
  scenario?: Scenario
}

/** The few words beside a flag's icon, in a table cell. */
export const FLAG_SHORT: Record<FlagKind, string> = {
  'faster-than-baseline': 'too fast?',
  noisy: 'noisy',
  'scenario-mismatch': 'setup differs',
  'bandwidth-cap': 'capped?',
  missing: 'missing'
}

/** A heading for a flag's explanation. */
export const FLAG_TITLE: Record<FlagKind, string> = {
  'faster-than-baseline': 'Faster than the baseline',
  noisy: 'Noisy repetitions',
  'scenario-mismatch': 'Declared setup differs from the detected one',
  'bandwidth-cap': 'Probably rate-limited',
  missing: 'Not measured'
}

/**
 * One plain-language paragraph per kind of flag: what it likely means and what to do. The flag's
 * own message (what was seen, with the figures) is shown beside it; this says why it matters.
 */
export function flagExplanation(flag: Flag, context: FlagContext = {}): string {
  switch (flag.kind) {
    case 'faster-than-baseline':
      return fasterExplanation(context)
    case 'noisy':
      return (
        'The repetitions of this figure disagree with each other by more than 10 %, so something disturbed the runs: ' +
        'other load on the target or on its host, a test too short to settle, caches filling up. The relative % may ' +
        'move a lot on a new run. Read the confidence interval before concluding anything; to narrow it, run on idle ' +
        'targets, make the test longer and add repetitions.'
      )
    case 'scenario-mismatch':
      return (
        "The physical host describes this guest's disk differently from the scenario the plan declares (for example " +
        'cache=writeback where the plan says cache=none). The figures measure the setup the host reported, so they ' +
        "must not be read as the declared one. Correct the plan's scenario, or change the guest's configuration to " +
        'match it, and run again.'
      )
    case 'bandwidth-cap':
      return (
        'The bandwidth sits just below a round number, which is what a rate limit looks like: clouds limit guests and ' +
        "public addresses by default (study 001's EIPs were held to 30 Mbit/s). The figure then shows the limit, not " +
        "the network. Lift the limit (set the guest's or the address's bandwidth to unlimited) and measure again."
      )
    case 'missing':
      return (
        'No successful repetition produced this figure, so there is nothing to compare: the table shows a dash, never ' +
        "a zero. The job failed, was not run, or its tool did not report this metric. Open the job's log for the " +
        'reason, fix it, and retry the job.'
      )
  }
}

function fasterExplanation({ category, metric, scenario }: FlagContext): string {
  if (category === 'storage') {
    const io = ioWord(metric)
    const cache = scenario?.cache
    if (cache === 'writeback' || cache === 'unsafe') {
      return (
        `Faster than physical: the host page cache is probably serving ${io}; cache=${cache}. A guest cannot move ` +
        "data faster than the disk beneath it, so the host's memory answered instead of the disk. To measure the " +
        'disk itself, set the guest disk to cache=none, run the test with direct=1, and use a working set larger ' +
        "than the host's RAM."
      )
    }
    const hostCache =
      cache === 'none' || cache === 'directsync'
        ? `The disk is declared cache=${cache}, so the host page cache should be out of the way: the guest's own page ` +
          'cache (a test without direct=1) or a working set small enough to stay in memory is the more likely cause.'
        : "The host page cache (a guest disk with cache=writeback) or the guest's own page cache most likely " +
          'answered instead of the disk.'
    return (
      `Faster than physical: a cache is probably serving ${io}, not the disk. ${hostCache} A guest cannot move data ` +
      'faster than the disk beneath it. To measure the disk itself, use cache=none, run the test with direct=1, and ' +
      "use a working set larger than the host's RAM."
    )
  }
  if (category === 'network') {
    return (
      "Faster than physical: the variant's traffic probably took a shorter path. Traffic between guests on one host " +
      "can stay in the host's memory and never cross the wire, or the baseline crossed a slower link or a rate limit. " +
      'Make sure both measurements cross the same links with no limit on either, then run again.'
    )
  }
  return (
    'Faster than physical: a guest rarely beats the machine it runs on, so the two runs probably differed. The ' +
    'baseline may have been busy or slowed down (other load, power saving, a lower CPU frequency), or the two did ' +
    'not run the same test. Check that both ran idle with the same parameters, then run again.'
  )
}

function ioWord(metric: string | undefined): string {
  if (metric === undefined) return 'this I/O'
  if (/write|put_block|create/.test(metric)) return 'these writes'
  if (/read|get_block/.test(metric)) return 'these reads'
  return 'this I/O'
}
