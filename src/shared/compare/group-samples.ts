import type { CompareInput } from '../model/comparison'
import type { Better, Unit } from '../model/sample'

/** The label that numbers repetitions inside one tool run (bonnie++ -x); never part of a row. */
export const REPETITION_LABEL = 'repetition'

interface SeriesEntry {
  value: number
  /** The measurement's repetition. */
  repetition: number
  /** The sample's own repetition label, when the tool repeats inside one run. */
  innerRepetition: string | undefined
  /** Position in the input, the last tie-breaker. */
  order: number
  /** When the measurement's job started (ms), when known. */
  startedAtMs: number | undefined
}

/** The samples of one row: one test, one metric, one set of labels, split by side. */
export interface SampleGroup {
  testId: string
  metric: string
  labels: Record<string, string>
  unit: Unit
  better: Better
  /** Identifies the row among all rows of the input (seeds its bootstrap). */
  key: string
  bySide: Map<string, SeriesEntry[]>
}

function labelsWithoutRepetition(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([key]) => key !== REPETITION_LABEL))
}

/**
 * Unit and direction are part of the key: samples that disagree on either cannot be divided
 * by each other, so they land in separate rows instead of giving a wrong ratio.
 */
function subKey(labels: Record<string, string>, unit: Unit, better: Better): string {
  const sorted = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify([sorted, unit, better])
}

function compareRepetitionLabels(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0
  if (a === undefined) return -1
  if (b === undefined) return 1
  const [na, nb] = [Number(a), Number(b)]
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb
  return a < b ? -1 : 1
}

function inRepetitionOrder(x: SeriesEntry, y: SeriesEntry): number {
  return x.repetition - y.repetition || compareRepetitionLabels(x.innerRepetition, y.innerRepetition) || x.order - y.order
}

/**
 * Groups the samples of the baseline and the variants into rows: tests in the input's order
 * (tests the input does not list follow, as first seen), then metrics as first seen, then label
 * sets as first seen. Samples of other sides and non-finite values are left out.
 */
export function groupSamples(input: CompareInput): SampleGroup[] {
  const sides = new Set([input.baseline, ...input.variants])
  const byTest = new Map<string, Map<string, Map<string, SampleGroup>>>()
  for (const test of input.tests) if (!byTest.has(test.id)) byTest.set(test.id, new Map())
  let order = 0
  for (const measurement of input.measurements) {
    if (!sides.has(measurement.side)) continue
    let byMetric = byTest.get(measurement.testId)
    if (!byMetric) byTest.set(measurement.testId, (byMetric = new Map()))
    for (const sample of measurement.samples) {
      if (!Number.isFinite(sample.value)) continue
      const labels = labelsWithoutRepetition(sample.labels)
      let byLabels = byMetric.get(sample.metric)
      if (!byLabels) byMetric.set(sample.metric, (byLabels = new Map()))
      const key = subKey(labels, sample.unit, sample.better)
      let group = byLabels.get(key)
      if (!group) {
        group = {
          testId: measurement.testId,
          metric: sample.metric,
          labels,
          unit: sample.unit,
          better: sample.better,
          key: JSON.stringify([measurement.testId, sample.metric, key]),
          bySide: new Map()
        }
        byLabels.set(key, group)
      }
      let entries = group.bySide.get(measurement.side)
      if (!entries) group.bySide.set(measurement.side, (entries = []))
      entries.push({
        value: sample.value,
        repetition: measurement.repetition,
        innerRepetition: sample.labels[REPETITION_LABEL],
        order: order++,
        startedAtMs: measurement.startedAtMs
      })
    }
  }
  return [...byTest.values()].flatMap((byMetric) => [...byMetric.values()].flatMap((byLabels) => [...byLabels.values()]))
}

/** One side's values of a group, in repetition order. */
export function valuesOf(group: SampleGroup, side: string): number[] {
  return [...(group.bySide.get(side) ?? [])].sort(inRepetitionOrder).map((entry) => entry.value)
}

/** Fewer pairs than this are compared as two samples (Welch): two pairs give t = 12.7 and a uselessly wide interval. */
export const MIN_PAIRS = 3

/**
 * The values of two sides that ran side by side, as pairs `[baseline, variant]`: the same
 * repetition (and the same repetition inside one tool run, bonnie++ -x) on both, in repetition
 * order. A repetition one side lacks (a failed job) leaves its pair out. Undefined, so the two
 * sides are compared as samples, when fewer than MIN_PAIRS remain, or when a pair did not run in
 * one round: another repetition of the test started between its two jobs (one was retried or
 * resumed later), so drift is no longer shared.
 */
export function pairedValuesOf(group: SampleGroup, baseline: string, variant: string): [number, number][] | undefined {
  const { byPair, starts } = pairingOf(group, baseline)
  const pairs: [number, number][] = []
  const seen = new Set<string>()
  for (const entry of [...(group.bySide.get(variant) ?? [])].sort(inRepetitionOrder)) {
    const key = pairKey(entry)
    const b = byPair.get(key)
    if (b === undefined || seen.has(key)) continue
    seen.add(key)
    if (!inOneRound(b, entry, starts)) return undefined
    pairs.push([b.value, entry.value])
  }
  return pairs.length >= MIN_PAIRS ? pairs : undefined
}

/** Which pair an entry belongs to: its repetition, and its repetition inside one tool run. */
function pairKey(e: SeriesEntry): string {
  return `${e.repetition}\u0000${e.innerRepetition ?? ''}`
}

interface Pairing {
  baseline: string
  /** The baseline's first entry of each pair. */
  byPair: Map<string, SeriesEntry>
  /** Every entry of the group (all sides) with a known start time. */
  starts: SeriesEntry[]
}

/** Computed once per group and baseline: each of the variants (20 in a large run) pairs against the same. */
const pairings = new WeakMap<SampleGroup, Pairing>()

function pairingOf(group: SampleGroup, baseline: string): Pairing {
  const known = pairings.get(group)
  if (known?.baseline === baseline) return known
  const byPair = new Map<string, SeriesEntry>()
  for (const entry of group.bySide.get(baseline) ?? []) {
    const key = pairKey(entry)
    if (!byPair.has(key)) byPair.set(key, entry)
  }
  const pairing = { baseline, byPair, starts: [...group.bySide.values()].flat().filter((e) => e.startedAtMs !== undefined) }
  pairings.set(group, pairing)
  return pairing
}

/** No other repetition of the test started between the two jobs of a pair (true when a time is unknown). */
function inOneRound(a: SeriesEntry, b: SeriesEntry, starts: readonly SeriesEntry[]): boolean {
  if (a.startedAtMs === undefined || b.startedAtMs === undefined) return true
  const [from, to] = a.startedAtMs <= b.startedAtMs ? [a.startedAtMs, b.startedAtMs] : [b.startedAtMs, a.startedAtMs]
  return !starts.some((e) => e.repetition !== a.repetition && e.startedAtMs! > from && e.startedAtMs! < to)
}
