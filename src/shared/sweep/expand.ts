/**
 * A sweep expanded: one variant per combination of the factors' values (the first factor
 * changes slowest, as in the study tables), and the order the combinations are measured in.
 * Pure.
 */
import type { Sweep } from '../model/plan'
import type { CompareInput } from '../model/comparison'
import type { DomainSetup, Scenario, SwapBackend } from '../model/scenario'

export interface SweepVariant {
  /** How tables name the combination: "cache=none, queues=2". */
  label: string
  /** The factor values of this combination, in the sweep's factor order. */
  values: Record<string, string | number>
  /** What VirtBench sets on the domain. */
  setup: DomainSetup
  /** The labels of the variant: the sweep's shared ones, the domain, the factors that are labels, and the setup. */
  scenario: Scenario
}

const FACTOR_ORDER = ['storage', 'cache', 'io', 'queues', 'bus', 'vcpus', 'memoryMiB', 'nicQueues'] as const
type Factor = (typeof FACTOR_ORDER)[number]

function setupOf(sweep: Sweep, values: Record<string, string | number>): DomainSetup {
  const setup: Record<string, unknown> = {}
  for (const [factor, value] of Object.entries(values)) {
    if (factor === 'bus') setup.bus = { disk: sweep.busDisk ?? '', to: value }
    else if (factor === 'storage') {
      const sources = Object.fromEntries(Object.entries(sweep.storage ?? {}).map(([dev, paths]) => [dev, paths[value as SwapBackend] ?? '']))
      setup.storage = { backend: value, sources, ...(sweep.storageBootDisk ? { allowBootDisk: true } : {}) }
    }
    else setup[factor] = value
  }
  if (sweep.disks) setup.disks = sweep.disks
  return setup as DomainSetup
}

/** Every combination, the first factor changing slowest. */
export function expandSweep(sweep: Sweep): SweepVariant[] {
  const factors = FACTOR_ORDER.filter((f) => sweep.factors[f] !== undefined)
  let combos: Record<string, string | number>[] = [{}]
  for (const factor of factors) {
    const vals = sweep.factors[factor] as readonly (string | number)[]
    combos = combos.flatMap((c) => vals.map((v) => ({ ...c, [factor]: v })))
  }
  return combos.map((values) => {
    const setup = setupOf(sweep, values)
    const scenario: Scenario = { ...sweep.scenario, domain: sweep.domain, setup }
    if (setup.cache) scenario.cache = setup.cache
    if (setup.queues !== undefined) scenario.queues = setup.queues
    if (setup.bus) scenario.bus = setup.bus.to
    if (setup.storage) scenario.storage = setup.storage.backend
    const label = Object.entries(values).map(([k, v]) => `${k}=${v}`).join(', ')
    return { label, values, setup, scenario }
  })
}

/** One step of a sweep: measure combination `variant` (an index into expandSweep's list) for `repetitions` repetitions. */
export interface SweepStep {
  variant: number
  repetitions: number
}

/**
 * The order of the measurements: grouped runs every repetition of a combination in one step
 * (one reconfiguration per combination); interleaved runs one repetition of each combination per
 * round, `repetitions` rounds (a reconfiguration before every step, so drift hits every
 * combination alike).
 */
export function sweepSteps(variants: number, repetitions: number, order: Sweep['order']): SweepStep[] {
  if (order === 'grouped') return Array.from({ length: variants }, (_, variant) => ({ variant, repetitions }))
  return Array.from({ length: repetitions }, () => Array.from({ length: variants }, (_, variant) => ({ variant, repetitions: 1 }))).flat()
}

/** The factors a sweep varies, in its order (a two-factor sweep is shown as a matrix). */
export function sweptFactors(sweep: Sweep): Factor[] {
  return FACTOR_ORDER.filter((f) => sweep.factors[f] !== undefined)
}

/**
 * One comparison input from the steps that measured one combination (several when the sweep
 * ran interleaved): their measurements side by side, each step's repetitions numbered after
 * the previous step's, so the rounds pair baseline and guest as they ran.
 */
export function mergeStepInputs(inputs: readonly CompareInput[]): CompareInput | undefined {
  const [first, ...rest] = inputs
  if (!first) return undefined
  let offset = Math.max(0, ...first.measurements.map((m) => m.repetition))
  const measurements = [...first.measurements]
  for (const input of rest) {
    measurements.push(...input.measurements.map((m) => ({ ...m, repetition: m.repetition + offset })))
    offset += Math.max(0, ...input.measurements.map((m) => m.repetition))
  }
  return { ...first, measurements }
}
