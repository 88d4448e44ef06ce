import { SweepSchema, type ComparisonPlanInput, type Sweep, type SweepInput } from '../../../shared/model/plan'
import { DISK_BUSES, DISK_CACHES, IO_MODES, SCENARIO_LABELS, SWAP_BACKENDS, type Scenario, type SwapBackend } from '../../../shared/model/scenario'
import { sameTargetName } from '../../../shared/model/target'
import { expandSweep, sweptFactors, type SweepVariant } from '../../../shared/sweep/expand'
import { typedNumber } from '../lib/typed-number'

/**
 * The wizard's working copy of a sweep (docs/scenarios.md#sweeps): one guest, its libvirt
 * domain, and the values of each factor swept, as chosen (cache, io, bus) or as typed (counts,
 * "1, 4"). Pure: the sweep it makes, its combinations, and the consent it needs.
 */

export const CHOICE_FACTORS = { cache: DISK_CACHES, io: IO_MODES, bus: DISK_BUSES } as const
export type ChoiceFactor = keyof typeof CHOICE_FACTORS
export const COUNT_FACTORS = ['queues', 'vcpus', 'memoryMiB', 'nicQueues'] as const
export type CountFactor = (typeof COUNT_FACTORS)[number]
/** storage has an editor of its own: the backends, and each data disk's prepared disk per backend on the host. */
export type SweepFactor = ChoiceFactor | CountFactor | 'storage'

/** A factor's name inside a sentence: "Sweep disk cache". */
export const FACTOR_WORDS: Record<SweepFactor, string> = {
  storage: 'storage backend',
  cache: 'disk cache',
  io: 'io mode',
  queues: 'disk queues',
  bus: 'disk bus',
  vcpus: 'vCPUs',
  memoryMiB: 'memory (MiB)',
  nicQueues: 'NIC queues'
}

/** The factors the wizard offers, in the model's order (expandSweep's: the first changes slowest). */
export const SWEEP_FACTORS: readonly (ChoiceFactor | CountFactor)[] = ['cache', 'io', 'queues', 'bus', 'vcpus', 'memoryMiB', 'nicQueues']

export const FACTOR_NAMES: Record<SweepFactor, string> = {
  storage: 'Storage backend',
  cache: 'Disk cache',
  io: 'io mode',
  queues: 'Disk queues',
  bus: 'Disk bus',
  vcpus: 'vCPUs',
  memoryMiB: 'Memory (MiB)',
  nicQueues: 'NIC queues'
}

export interface SweepDraft {
  /** The guest swept (a ticked guest). */
  target: string
  /** Its libvirt domain on its physical host, as typed or picked from the host's list. */
  domain: string
  /** Values of each choice factor swept, in the model's order; a factor absent is not swept. */
  chosen: Partial<Record<ChoiceFactor, string[]>>
  /** Values of each count factor swept, as typed ("1, 4"); a factor absent is not swept. */
  typed: Partial<Record<CountFactor, string>>
  /** The data disk a bus factor moves (its <target dev>). */
  busDisk: string
  /** The storage factor, when it is swept. */
  storage?: StorageDraft
  order: 'grouped' | 'interleaved'
}

/**
 * The storage factor as the wizard edits it: the backends swept (in the model's order), each
 * data disk swapped with the prepared disk on the physical host per backend (as typed; only the
 * backends swept are sent), and whether the disk the guest boots from may be swapped.
 */
export interface StorageDraft {
  backends: SwapBackend[]
  disks: StorageDiskDraft[]
  allowBootDisk: boolean
}

export interface StorageDiskDraft {
  /** Its <target dev> in the domain XML (vdb). */
  disk: string
  /** The prepared disk per backend: a file for file-raw and file-qcow2, a block device (a logical volume) for lvm. */
  paths: Partial<Record<SwapBackend, string>>
}

export function emptySweep(target: string, domain = ''): SweepDraft {
  return { target, domain, chosen: {}, typed: {}, busDisk: '', order: 'grouped' }
}

export function isSwept(sweep: SweepDraft, factor: SweepFactor): boolean {
  if (factor === 'storage') return sweep.storage !== undefined
  return factor in CHOICE_FACTORS ? sweep.chosen[factor as ChoiceFactor] !== undefined : sweep.typed[factor as CountFactor] !== undefined
}

/** The sweep with `factor` swept (with `initial` values) or not. */
export function withFactor(sweep: SweepDraft, factor: SweepFactor, on: boolean, initial?: string[] | string): SweepDraft {
  if (factor === 'storage') {
    const { storage: _dropped, ...rest } = sweep
    return on ? { ...rest, storage: { backends: [], disks: [{ disk: '', paths: {} }], allowBootDisk: false } } : rest
  }
  if (factor in CHOICE_FACTORS) {
    const { [factor as ChoiceFactor]: _dropped, ...chosen } = sweep.chosen
    return { ...sweep, chosen: on ? { ...chosen, [factor]: (initial as string[] | undefined) ?? [] } : chosen }
  }
  const { [factor as CountFactor]: _dropped, ...typed } = sweep.typed
  return { ...sweep, typed: on ? { ...typed, [factor]: (initial as string | undefined) ?? '' } : typed }
}

/** A choice factor's values with `value` in or out, in the model's order. */
export function withChoice(sweep: SweepDraft, factor: ChoiceFactor, value: string, on: boolean): SweepDraft {
  const current = new Set(sweep.chosen[factor] ?? [])
  if (on) current.add(value)
  else current.delete(value)
  return { ...sweep, chosen: { ...sweep.chosen, [factor]: CHOICE_FACTORS[factor].filter((v) => current.has(v)) } }
}

/** The storage factor changed by `change` (nothing when it is not swept). */
function withStorage(sweep: SweepDraft, change: (storage: StorageDraft) => StorageDraft): SweepDraft {
  return sweep.storage ? { ...sweep, storage: change(sweep.storage) } : sweep
}

/** A backend swept or not, in the model's order. */
export function withBackend(sweep: SweepDraft, backend: SwapBackend, on: boolean): SweepDraft {
  return withStorage(sweep, (s) => {
    const current = new Set(s.backends)
    if (on) current.add(backend)
    else current.delete(backend)
    return { ...s, backends: SWAP_BACKENDS.filter((b) => current.has(b)) }
  })
}

/** Another data disk to swap (its name and paths still to type). */
export function withStorageDiskAdded(sweep: SweepDraft): SweepDraft {
  return withStorage(sweep, (s) => ({ ...s, disks: [...s.disks, { disk: '', paths: {} }] }))
}

export function withStorageDiskRemoved(sweep: SweepDraft, index: number): SweepDraft {
  return withStorage(sweep, (s) => ({ ...s, disks: s.disks.filter((_, i) => i !== index) }))
}

/** The disk at `index` with another name, or another prepared disk for `backend`. */
export function withStorageDisk(sweep: SweepDraft, index: number, change: { disk: string } | { backend: SwapBackend; path: string }): SweepDraft {
  return withStorage(sweep, (s) => ({
    ...s,
    disks: s.disks.map((d, i) => (i !== index ? d : 'disk' in change ? { ...d, disk: change.disk } : { ...d, paths: { ...d.paths, [change.backend]: change.path } }))
  }))
}

export function withBootDiskAllowed(sweep: SweepDraft, allowBootDisk: boolean): SweepDraft {
  return withStorage(sweep, (s) => ({ ...s, allowBootDisk }))
}

/** The plan's `storage` and `storageBootDisk` from the draft: each disk named, with the paths of the backends swept that are typed. */
function storageOfDraft(storage: StorageDraft): Pick<SweepInput, 'storage' | 'storageBootDisk'> {
  const disks = storage.disks.map((d) => {
    const paths = storage.backends.flatMap((b) => {
      const path = d.paths[b]?.trim()
      return path ? [[b, path] as const] : []
    })
    return [d.disk.trim(), Object.fromEntries(paths)] as const
  })
  return { storage: Object.fromEntries(disks), ...(storage.allowBootDisk ? { storageBootDisk: true } : {}) }
}

/** The storage draft of a plan's sweep (a preset): its backends, its disks in their order. */
function draftOfStorage(sweep: NonNullable<ComparisonPlanInput['sweep']>): StorageDraft | undefined {
  if (!sweep.factors.storage && !sweep.storage) return undefined
  return {
    backends: [...(sweep.factors.storage ?? [])],
    disks: Object.entries(sweep.storage ?? {}).map(([disk, paths]) => ({ disk, paths: { ...paths } })),
    allowBootDisk: sweep.storageBootDisk === true
  }
}

/** The disk names typed more than once (the plan names each disk once). */
export function repeatedStorageDisks(storage: StorageDraft): Set<string> {
  const names = storage.disks.map((d) => d.disk.trim()).filter((n) => n !== '')
  return new Set(names.filter((n, i) => names.indexOf(n) !== i))
}

/** "1, 4" as [1, 4]; what is not a number stays text, so the schema names it at its field. */
function typedList(text: string): (number | string)[] {
  return text
    .split(/[\s,;]+/)
    .filter((part) => part !== '')
    .map(typedNumber)
}

/** The labels every combination shares: the guest's own, without what the sweep sets. */
function sharedLabels(scenario: Scenario | undefined): SweepInput['scenario'] {
  if (!scenario) return {}
  const { setup: _setup, domain: _domain, cache: _cache, queues: _queues, bus: _bus, ...rest } = scenario
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== ''))
}

/** The plan's sweep from the draft, exactly as Start and "Save as preset" send it. */
export function sweepOfDraft(sweep: SweepDraft, scenario: Scenario | undefined): NonNullable<ComparisonPlanInput['sweep']> {
  const factors: Record<string, unknown> = sweep.storage ? { storage: sweep.storage.backends } : {}
  for (const factor of SWEEP_FACTORS) {
    if (factor in CHOICE_FACTORS) {
      const values = sweep.chosen[factor as ChoiceFactor]
      if (values) factors[factor] = values
    } else {
      const text = sweep.typed[factor as CountFactor]
      if (text !== undefined) factors[factor] = typedList(text)
    }
  }
  return {
    target: sweep.target,
    domain: sweep.domain.trim(),
    scenario: sharedLabels(scenario),
    factors: factors as SweepInput['factors'],
    ...(sweep.chosen.bus ? { busDisk: sweep.busDisk.trim() } : {}),
    ...(sweep.storage ? storageOfDraft(sweep.storage) : {}),
    order: sweep.order
  }
}

/** The draft of a plan's sweep (a preset). */
export function draftOfSweep(sweep: NonNullable<ComparisonPlanInput['sweep']>): SweepDraft {
  const draft = emptySweep(sweep.target, sweep.domain)
  const factors = sweep.factors as Record<string, (string | number)[] | undefined>
  for (const factor of SWEEP_FACTORS) {
    const values = factors[factor]
    if (!values) continue
    if (factor in CHOICE_FACTORS) draft.chosen[factor as ChoiceFactor] = values.map(String)
    else draft.typed[factor as CountFactor] = values.join(', ')
  }
  const storage = draftOfStorage(sweep)
  return { ...draft, ...(storage ? { storage } : {}), busDisk: sweep.busDisk ?? '', order: sweep.order ?? 'grouped' }
}

/** The sweep as the model has it, or undefined while it has a problem (the review names it). */
export function parsedSweep(sweep: SweepDraft, scenario: Scenario | undefined): Sweep | undefined {
  const parsed = SweepSchema.safeParse(sweepOfDraft(sweep, scenario))
  return parsed.success && storageComplete(parsed.data) ? parsed.data : undefined
}

/** Every disk of a storage sweep has a prepared disk for every backend (the plan's rule; its message is the plan's too). */
function storageComplete(sweep: Sweep): boolean {
  const backends = sweep.factors.storage
  if (!backends) return sweep.storage === undefined
  return sweep.storage !== undefined && Object.values(sweep.storage).every((paths) => backends.every((b) => paths[b] !== undefined))
}

/** Every combination the sweep measures, or undefined while it has a problem. */
export function combinationsOf(sweep: SweepDraft, scenario: Scenario | undefined): SweepVariant[] | undefined {
  const parsed = parsedSweep(sweep, scenario)
  return parsed ? expandSweep(parsed) : undefined
}

/** The two factors of a two-factor sweep (its matrix: rows, columns), else undefined. */
export function matrixFactors(sweep: SweepDraft, scenario: Scenario | undefined): [SweepFactor, SweepFactor] | undefined {
  const parsed = parsedSweep(sweep, scenario)
  const factors = parsed ? sweptFactors(parsed) : []
  return factors.length === 2 ? [factors[0]!, factors[1]!] : undefined
}

/** A factor's value as tables show it: "cache=none", "4 queues", "2048 MiB". */
export function valueText(factor: SweepFactor, value: string | number): string {
  if (factor === 'cache') return SCENARIO_LABELS.cache[value as keyof typeof SCENARIO_LABELS.cache] ?? `cache=${value}`
  if (factor === 'bus') return SCENARIO_LABELS.bus[value as keyof typeof SCENARIO_LABELS.bus] ?? String(value)
  if (factor === 'io') return `io=${value}`
  if (factor === 'storage') return SCENARIO_LABELS.storage[value as keyof typeof SCENARIO_LABELS.storage] ?? String(value)
  if (factor === 'memoryMiB') return `${value} MiB`
  if (factor === 'vcpus') return value === 1 ? '1 vCPU' : `${value} vCPUs`
  if (factor === 'nicQueues') return value === 1 ? '1 NIC queue' : `${value} NIC queues`
  return value === 1 ? '1 queue' : `${value} queues`
}

/** A domain the plan changes: the guest, its domain, and its physical host (undefined when the inventory names none). */
export interface DomainChangeConsent {
  guest: string
  domain: string
  host: string | undefined
}

/** The domains a plan changes: its sweep's, and each variant's with a setup. */
export function domainsChanged(plan: ComparisonPlanInput, hostOf: (guest: string) => string | undefined): DomainChangeConsent[] {
  const changed = (plan.variants ?? []).flatMap((v) => (v.scenario?.setup && v.scenario.domain ? [{ guest: v.target, domain: v.scenario.domain }] : []))
  if (plan.sweep) changed.push({ guest: plan.sweep.target, domain: plan.sweep.domain })
  return changed.map((c) => ({ ...c, host: hostOf(c.guest) }))
}

/** What the consent checkbox says: the exact domains and hosts, and that each is put back. */
export function consentText(changes: readonly DomainChangeConsent[]): string {
  const each = changes.map((c) => `domain ${c.domain || '(not named yet)'} on host ${c.host ?? '(no physical host)'}`)
  return `VirtBench will edit and restart ${each.join(' and ')}; the original XML is saved and restored at the end.`
}

/** The physical host of a guest as main finds it: its host in the inventory, else the baseline. */
export function physicalHostName(
  guest: string,
  baseline: string | undefined,
  inventory: readonly { id: string; name: string; hostId?: string | undefined }[]
): string | undefined {
  const target = inventory.find((t) => sameTargetName(t.name, guest))
  const byId = target?.hostId ? inventory.find((t) => t.id === target.hostId) : undefined
  const host = byId?.name ?? baseline
  return host && !sameTargetName(host, guest) ? host : undefined
}
