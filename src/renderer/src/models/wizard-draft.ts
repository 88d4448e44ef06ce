import type { AcceptanceInput } from '../../../shared/model/criteria'
import { formatAbout } from '../../../shared/format'
import type { CatalogPack, CatalogTest, PlanIssue } from '../../../shared/catalog-contract'
import { DEFAULT_WORK_DIR, ComparisonPlanSchema, type ComparisonPlanInput, type CustomTest, type NetworkSetup, type PackChoice } from '../../../shared/model/plan'
import type { Scenario } from '../../../shared/model/scenario'
import { sameTargetName } from '../../../shared/model/target'
import type { Aggregate, PackId, ToolId } from '../../../shared/model/tool-ids'
import { ARCHIVE_TOOLS, type ArchiveTool, type ToolArchiveInput } from '../../../shared/tool-archive-contract'
import { typedNumber } from '../lib/typed-number'
import { draftOfSweep, sweepOfDraft, type SweepDraft } from './sweep-draft'

/**
 * The wizard's working copy of a comparison plan, and the pure functions around it: the plan it
 * makes, the problems it has (with the step and field each concerns), and study 001's matrix.
 * The draft keeps what a person typed (text stays text until it becomes the plan) and what they
 * set aside (a guest unticked, a pack left out), so going back and forth loses nothing.
 */

export interface VariantDraft {
  target: string
  /** Empty: tables use the target name. */
  label: string
  scenario: Scenario
}

export interface PackDraft {
  kind: 'pack'
  pack: PackId
  form: 'full' | 'quick'
  /** Test ids to run, in the pack's order; undefined runs them all. */
  only: string[] | undefined
}

export interface CustomDraft {
  kind: 'custom'
  id: string
  title: string
  tool: ToolId
  params: Record<string, unknown>
  /** As typed; empty takes the plan's repetitions. */
  repetitions: string
  /** Undefined takes the plan's aggregation. */
  aggregate: Aggregate | undefined
}

export type TestDraft = PackDraft | CustomDraft

export interface WizardDraft {
  /** As typed, once `nameEdited`; until then the plan is named after its targets. */
  name: string
  nameEdited: boolean
  baseline: string | undefined
  baselineLabel: string
  variants: VariantDraft[]
  /** Variants unticked on the targets step, by lower-case target name, restored when ticked again. */
  parked: Record<string, VariantDraft>
  tests: TestDraft[]
  /** Packs left out, with the form and tests chosen for them, restored when included again. */
  parkedPacks: Partial<Record<PackId, PackDraft>>
  /** As typed. */
  repetitions: string
  aggregate: Aggregate
  storage: { kind: 'directory' | 'device'; directory: string; device: string; confirm: string }
  /** `paths` and `peerRole` have no fields in the wizard yet: kept as a preset gave them (docs/presets.md, "Network paths"). */
  network: { peer: string | undefined; matrix: boolean; simultaneous: boolean; paths?: NetworkSetup['paths']; peerRole?: NetworkSetup['peerRole'] }
  schedule: { order: 'grouped' | 'interleaved'; parallelTargets: boolean }
  /** Verdicts and repetitions, as typed: the equivalence margin, adaptive repetitions (empty precision: off), a warm-up run. */
  statistics: { margin: string; precision: string; maxRepetitions: string; budget: string; warmup: boolean }
  /** The plan's acceptance criteria (docs/presets.md#acceptance-criteria), kept as the preset has them; undefined: none. */
  acceptance?: AcceptanceInput
  /** The plan's idle check length in seconds (docs/preflight.md), kept as the preset has it; undefined: the default. */
  idleSeconds?: number
  /** One guest measured under every combination of factors that VirtBench applies to its domain (docs/scenarios.md#sweeps); undefined: none. */
  sweep?: SweepDraft
  /** The consent sentence the user ticked (the domains and hosts it names); Start needs it to match the plan's. Never saved. */
  domainConsent?: string
  /**
   * Tools brought from this computer (docs/tools-offline.md), as typed. A path is this computer's:
   * never part of the plan, so never in a preset; kept when a preset is opened.
   */
  toolArchives?: Partial<Record<ArchiveTool, ToolArchiveDraft>>
}

/** One tool's file on this computer and the SHA-256 it must have (empty: the pinned release's, or recorded). */
export interface ToolArchiveDraft {
  path: string
  sha256: string
}

export const DEFAULT_MARGIN = '3'
export const DEFAULT_MAX_REPETITIONS = '10'

export const DEFAULT_REPETITIONS = 3

export function emptyDraft(): WizardDraft {
  return {
    name: '',
    nameEdited: false,
    baseline: undefined,
    baselineLabel: '',
    variants: [],
    parked: {},
    tests: [],
    parkedPacks: {},
    repetitions: String(DEFAULT_REPETITIONS),
    aggregate: 'median',
    storage: { kind: 'directory', directory: DEFAULT_WORK_DIR, device: '', confirm: '' },
    network: { peer: undefined, matrix: false, simultaneous: false },
    schedule: { order: 'interleaved', parallelTargets: false },
    statistics: { margin: DEFAULT_MARGIN, precision: '', maxRepetitions: DEFAULT_MAX_REPETITIONS, budget: '', warmup: false }
  }
}

// ---------------------------------------------------------------------------------------------
// Plan <-> draft

const NAME_MAX = 120

/** "host-01 vs vm1, vm2": the name a plan gets until the user gives one. */
export function derivedName(draft: Pick<WizardDraft, 'baseline' | 'variants'>): string {
  if (!draft.baseline) return ''
  const variants = draft.variants.map((v) => v.label.trim() || v.target)
  const name = variants.length > 0 ? `${draft.baseline} vs ${variants.join(', ')}` : draft.baseline
  return name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name
}

export function draftName(draft: WizardDraft): string {
  return draft.nameEdited ? draft.name : derivedName(draft)
}


function cleanScenario(scenario: Scenario): Scenario {
  const clean: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(scenario)) {
    if (value !== undefined && value !== '') clean[key] = value
  }
  return clean as Scenario
}

function testOfDraft(test: TestDraft): PackChoice | CustomTest {
  if (test.kind === 'pack') return { pack: test.pack, form: test.form, ...(test.only ? { only: test.only } : {}) }
  const repetitions = test.repetitions.trim() === '' ? undefined : typedNumber(test.repetitions)
  return {
    id: test.id,
    ...(test.title.trim() ? { title: test.title.trim() } : {}),
    tool: test.tool,
    params: test.params,
    ...(repetitions !== undefined ? { repetitions: repetitions as number } : {}),
    ...(test.aggregate ? { aggregate: test.aggregate } : {})
  }
}

/** The plan the draft stands for, exactly as Start and "Save as preset" send it. */
export function planOfDraft(draft: WizardDraft): ComparisonPlanInput {
  const storage =
    draft.storage.kind === 'directory'
      ? { kind: 'directory' as const, path: draft.storage.directory.trim() }
      : { kind: 'device' as const, path: draft.storage.device.trim(), confirm: draft.storage.confirm }
  const swept = draft.sweep
  return {
    name: draftName(draft).trim(),
    baseline: { target: draft.baseline ?? '', ...(draft.baselineLabel.trim() ? { label: draft.baselineLabel.trim() } : {}) },
    // a sweep measures its guest alone, once per combination (the sweep runner's steps)
    variants: (swept ? [] : draft.variants).map((v) => ({
      target: v.target,
      ...(v.label.trim() ? { label: v.label.trim() } : {}),
      scenario: cleanScenario(v.scenario)
    })),
    tests: draft.tests.map(testOfDraft),
    repetitions: typedNumber(draft.repetitions) as number,
    aggregate: draft.aggregate,
    storage,
    network: {
      ...(draft.network.peer ? { peer: draft.network.peer } : {}),
      matrix: draft.network.matrix,
      simultaneous: draft.network.simultaneous,
      ...(draft.network.paths ? { paths: draft.network.paths } : {}),
      ...(draft.network.peerRole ? { peerRole: draft.network.peerRole } : {})
    },
    schedule: { ...draft.schedule },
    ...statisticsOfDraft(draft.statistics),
    ...(draft.acceptance ? { acceptance: draft.acceptance } : {}),
    ...(draft.idleSeconds !== undefined ? { idleSeconds: draft.idleSeconds } : {}),
    ...(swept ? { sweep: sweepOfDraft(swept, draft.variants.find((v) => sameTargetName(v.target, swept.target))?.scenario) } : {})
  }
}

/** The plan's margin, precision and warm-up from what was typed (an empty precision: no adaptive repetitions). */
function statisticsOfDraft(s: WizardDraft['statistics']): Pick<ComparisonPlanInput, 'equivalenceMarginPct' | 'precision' | 'warmup'> {
  const number = (text: string): number => typedNumber(text) as number
  return {
    equivalenceMarginPct: number(s.margin),
    ...(s.precision.trim() !== ''
      ? {
          precision: {
            halfWidthPct: number(s.precision),
            ...(s.maxRepetitions.trim() !== '' ? { maxRepetitions: number(s.maxRepetitions) } : {}),
            ...(s.budget.trim() !== '' ? { budgetSeconds: number(s.budget) } : {})
          }
        }
      : {}),
    warmup: s.warmup
  }
}

/**
 * A draft filled from a plan (a preset). A raw-device confirmation is never taken over: the
 * person starting the run types the device path again (docs/presets.md).
 */
export function draftOfPlan(plan: ComparisonPlanInput): WizardDraft {
  const empty = emptyDraft()
  const storage = plan.storage ?? { kind: 'directory' as const }
  return {
    ...empty,
    name: plan.name ?? '',
    nameEdited: true,
    baseline: plan.baseline?.target || undefined,
    baselineLabel: plan.baseline?.label ?? '',
    variants: [
      ...(plan.variants ?? []).map((v) => ({ target: v.target, label: v.label ?? '', scenario: { ...(v.scenario ?? {}) } })),
      // the swept guest is a ticked guest of the draft, with the labels its combinations share
      ...(plan.sweep && !(plan.variants ?? []).some((v) => sameTargetName(v.target, plan.sweep!.target))
        ? [{ target: plan.sweep.target, label: '', scenario: { ...(plan.sweep.scenario ?? {}) } }]
        : [])
    ],
    tests: (plan.tests ?? []).map((t): TestDraft =>
      'pack' in t
        ? { kind: 'pack', pack: t.pack, form: t.form ?? 'full', only: t.only ? [...t.only] : undefined }
        : {
            kind: 'custom',
            id: t.id,
            title: t.title ?? '',
            tool: t.tool,
            params: { ...(t.params ?? {}) },
            repetitions: t.repetitions !== undefined ? String(t.repetitions) : '',
            aggregate: t.aggregate
          }
    ),
    repetitions: String(plan.repetitions ?? DEFAULT_REPETITIONS),
    aggregate: plan.aggregate ?? 'median',
    storage:
      storage.kind === 'device'
        ? { kind: 'device', directory: DEFAULT_WORK_DIR, device: storage.path, confirm: '' }
        : { kind: 'directory', directory: storage.path ?? DEFAULT_WORK_DIR, device: '', confirm: '' },
    network: {
      peer: plan.network?.peer,
      matrix: plan.network?.matrix ?? false,
      simultaneous: plan.network?.simultaneous ?? false,
      ...(plan.network?.paths ? { paths: plan.network.paths } : {}),
      ...(plan.network?.peerRole ? { peerRole: plan.network.peerRole } : {})
    },
    schedule: { order: plan.schedule?.order ?? 'interleaved', parallelTargets: plan.schedule?.parallelTargets ?? false },
    statistics: {
      margin: String(plan.equivalenceMarginPct ?? DEFAULT_MARGIN),
      precision: plan.precision ? String(plan.precision.halfWidthPct) : '',
      maxRepetitions: String(plan.precision?.maxRepetitions ?? DEFAULT_MAX_REPETITIONS),
      budget: plan.precision?.budgetSeconds !== undefined ? String(plan.precision.budgetSeconds) : '',
      warmup: plan.warmup ?? false
    },
    ...(plan.acceptance ? { acceptance: plan.acceptance } : {}),
    ...(plan.idleSeconds !== undefined ? { idleSeconds: plan.idleSeconds } : {}),
    ...(plan.sweep ? { sweep: draftOfSweep(plan.sweep) } : {})
  }
}

// ---------------------------------------------------------------------------------------------
// Targets

/** The draft with `name` as the baseline; a guest picked as a variant stops being one. */
export function withBaseline(draft: WizardDraft, name: string): WizardDraft {
  const variants = draft.variants.filter((v) => !sameTargetName(v.target, name))
  const parked = { ...draft.parked }
  for (const v of draft.variants) if (sameTargetName(v.target, name)) parked[v.target.toLowerCase()] = v
  return { ...draft, baseline: name, variants, parked, network: peerWithout(draft.network, name) }
}

function peerWithout(network: WizardDraft['network'], name: string): WizardDraft['network'] {
  return network.peer && sameTargetName(network.peer, name) ? { ...network, peer: undefined } : network
}

/** Ticks or unticks a guest; an unticked guest's label and scenario come back when it is ticked again. */
export function withVariant(draft: WizardDraft, name: string, on: boolean): WizardDraft {
  const key = name.toLowerCase()
  const present = draft.variants.some((v) => sameTargetName(v.target, name))
  if (on) {
    if (present) return draft
    const { [key]: restored, ...parked } = draft.parked
    const variant = restored ?? { target: name, label: '', scenario: {} }
    const baseline = draft.baseline && sameTargetName(draft.baseline, name) ? undefined : draft.baseline
    return { ...draft, baseline, variants: [...draft.variants, variant], parked, network: peerWithout(draft.network, name) }
  }
  if (!present) return draft
  const leaving = draft.variants.find((v) => sameTargetName(v.target, name))
  return {
    ...draft,
    variants: draft.variants.filter((v) => !sameTargetName(v.target, name)),
    parked: leaving ? { ...draft.parked, [key]: leaving } : draft.parked
  }
}

export function movedVariant(draft: WizardDraft, index: number, by: -1 | 1): WizardDraft {
  const to = index + by
  if (to < 0 || to >= draft.variants.length) return draft
  const variants = [...draft.variants]
  const [moving] = variants.splice(index, 1)
  if (moving) variants.splice(to, 0, moving)
  return { ...draft, variants }
}

// ---------------------------------------------------------------------------------------------
// Study 001's matrix

export const MATRIX_CELLS = [
  { cache: 'none', queues: 1 },
  { cache: 'none', queues: 4 },
  { cache: 'writeback', queues: 1 },
  { cache: 'writeback', queues: 4 }
] as const

export type MatrixCell = (typeof MATRIX_CELLS)[number]

export function matrixLabel(target: string, cell: MatrixCell): string {
  return `${target} cache=${cell.cache} q=${cell.queues}`
}

/** Why these four guests cannot make the matrix, or undefined when they can. */
export function matrixProblem(draft: WizardDraft, guests: readonly string[]): string | undefined {
  if (guests.length !== MATRIX_CELLS.length || guests.some((g) => g.trim() === '')) {
    return 'Choose a guest target for each of the four combinations.'
  }
  const twice = guests.find((g, i) => guests.slice(0, i).some((other) => sameTargetName(other, g)))
  if (twice) return `${twice} is chosen for two combinations; each combination is a guest set up its own way, so each needs its own target.`
  const baseline = draft.baseline
  if (baseline && guests.some((g) => sameTargetName(g, baseline))) return `${baseline} is the baseline; choose guests for the combinations.`
  return undefined
}

/**
 * The draft with study 001's four variants (cache none/writeback x queues 1/4), one guest each,
 * first and in the study's order; other variants stay after them. A guest that was already a
 * variant keeps the rest of its scenario (hypervisor, storage, bus...).
 */
export function withMatrix(draft: WizardDraft, guests: readonly string[]): WizardDraft {
  const find = (name: string): VariantDraft | undefined =>
    draft.variants.find((v) => sameTargetName(v.target, name)) ?? draft.parked[name.toLowerCase()]
  const matrix = MATRIX_CELLS.map((cell, i): VariantDraft => {
    const name = guests[i] ?? ''
    const known = find(name)
    return {
      target: known?.target ?? name,
      label: matrixLabel(known?.target ?? name, cell),
      scenario: { ...(known?.scenario ?? {}), cache: cell.cache, queues: cell.queues }
    }
  })
  const others = draft.variants.filter((v) => !guests.some((g) => sameTargetName(g, v.target)))
  const parked = { ...draft.parked }
  for (const g of guests) delete parked[g.toLowerCase()]
  return { ...draft, variants: [...matrix, ...others], parked }
}

// ---------------------------------------------------------------------------------------------
// Tests

export function packTests(pack: CatalogPack, form: 'full' | 'quick'): CatalogTest[] {
  return form === 'full' ? pack.full.tests : pack.quick.tests
}

/** The pack's tests this choice runs. */
export function chosenPackTests(pack: CatalogPack, choice: Pick<PackDraft, 'form' | 'only'>): CatalogTest[] {
  const tests = packTests(pack, choice.form)
  return choice.only ? tests.filter((t) => choice.only?.includes(t.id)) : tests
}

/** Seconds the chosen tests take on one target: each test's time x its repetitions (its own, else the plan's). */
export function packSeconds(pack: CatalogPack, choice: Pick<PackDraft, 'form' | 'only'>, planRepetitions: number): number {
  return chosenPackTests(pack, choice).reduce((sum, t) => sum + t.seconds * (t.repetitions ?? planRepetitions), 0)
}

/** The draft's repetitions when they are a usable number, else the default (for estimates only). */
export function estimateRepetitions(draft: WizardDraft): number {
  const n = Number(draft.repetitions)
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : DEFAULT_REPETITIONS
}

/** A pack choice with `only` normalized: all tests is undefined, the ids in the pack's order. */
export function normalizedOnly(pack: CatalogPack, form: 'full' | 'quick', ids: readonly string[]): string[] | undefined {
  const tests = packTests(pack, form)
  const kept = tests.filter((t) => ids.includes(t.id)).map((t) => t.id)
  return kept.length === tests.length ? undefined : kept
}

/** The first free id of the form `<tool>-<n>` among the plan's custom tests. */
export function freeTestId(draft: WizardDraft, tool: ToolId): string {
  const taken = new Set(draft.tests.filter((t): t is CustomDraft => t.kind === 'custom').map((t) => t.id))
  let n = 1
  while (taken.has(`${tool}-${n}`)) n++
  return `${tool}-${n}`
}

/** "about 14 min", "about 18 h 23 min", "about 40 s" (as `virtbench packs` prints them). */
export const formatDuration = formatAbout

// ---------------------------------------------------------------------------------------------
// Problems, and where each one is fixed

export const STEPS = [
  { key: 'targets', title: 'Targets' },
  { key: 'scenario', title: 'Scenario' },
  { key: 'tests', title: 'Tests' },
  { key: 'review', title: 'Review' }
] as const

export type StepIndex = 0 | 1 | 2 | 3

/** The step where the field at `path` ('variants.0.scenario.cache') is edited. */
export function stepOfPath(path: string): StepIndex {
  const [head, index, field] = path.split('.')
  if (head === 'baseline') return path === 'baseline.label' ? 1 : 0
  if (head === 'sweep') return 1
  if (head === 'variants') return index === undefined || field === 'target' ? 0 : 1
  if (head === 'tests' || head === 'repetitions' || head === 'aggregate' || head === 'storage' || head === 'network' || head === 'schedule') return 2
  return 3
}

/** The DOM id of the control that edits `path`, so a problem can take the user to it. */
export function fieldId(path: string): string {
  return `wiz-${path.replace(/[^A-Za-z0-9_-]+/g, '-') || 'plan'}`
}

/** Messages people read instead of the schema's, where the wizard knows better what to say. */
function friendlier(path: string, message: string, draft: WizardDraft): string {
  if (path === 'baseline.target' && !draft.baseline) return 'Choose the baseline: the machine that is 100 %, usually the physical host.'
  if (path === 'variants' && draft.variants.length === 0) return 'Tick at least one guest to compare with the baseline.'
  if (path === 'tests' && draft.tests.length === 0) return 'Choose at least one study pack or add a custom test.'
  if (path === 'repetitions') return 'Repetitions are a whole number from 1 to 100.'
  if (/^tests\.[0-9]+\.repetitions$/.test(path)) return 'Repetitions are a whole number from 1 to 100, or empty for the plan’s.'
  if (/^tests\.[0-9]+\.only$/.test(path)) return 'Tick at least one test of this pack, or leave the pack out.'
  if (path === 'storage.confirm') {
    const device = draft.storage.device.trim()
    return draft.storage.confirm === ''
      ? `Type ${device || 'the device path'} again to confirm that everything on it may be destroyed.`
      : `This does not match ${device || 'the device path'}; type it exactly to confirm.`
  }
  if (path === 'name' && draftName(draft).trim() === '') return 'Give the comparison a name.'
  return message
}

/** What is wrong with the draft as a plan, found here without asking main. */
export function localIssues(draft: WizardDraft, inventory: readonly string[] | undefined): PlanIssue[] {
  const plan = planOfDraft(draft)
  const issues: PlanIssue[] = []
  const result = ComparisonPlanSchema.safeParse(plan)
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.')
      if (issues.some((i) => i.path === path)) continue
      issues.push({ path, message: friendlier(path, issue.message, draft) })
    }
    // in the order of the plan's fields (the wizard's), not the schema's: checks of the whole plan come last there
    const fields = Object.keys(plan)
    const rank = (path: string): number => {
      const at = fields.indexOf(path.split('.')[0]!)
      return at < 0 ? fields.length : at
    }
    issues.sort((a, b) => rank(a.path) - rank(b.path))
  }
  if (inventory) {
    const missing = (name: string): boolean => name.trim() !== '' && !inventory.some((n) => sameTargetName(n, name))
    const notSaved = (name: string): string => `${name} is not among your targets: add it on the Targets page, or choose another.`
    if (draft.baseline && missing(draft.baseline) && !issues.some((i) => i.path === 'baseline.target')) {
      issues.push({ path: 'baseline.target', message: notSaved(draft.baseline) })
    }
    draft.variants.forEach((v, i) => {
      const path = `variants.${i}.target`
      if (missing(v.target) && !issues.some((x) => x.path === path)) issues.push({ path, message: notSaved(v.target) })
    })
    if (draft.network.peer && missing(draft.network.peer)) issues.push({ path: 'network.peer', message: notSaved(draft.network.peer) })
  }
  return issues
}

/** The local problems, then main's that say something new (a path the local check had nothing on). */
export function mergedIssues(local: readonly PlanIssue[], remote: readonly PlanIssue[] | undefined): PlanIssue[] {
  const merged = [...local]
  for (const issue of remote ?? []) {
    const path = normalizedPath(issue.path)
    if (local.some((l) => l.path === path)) continue
    if (merged.some((m) => m.path === path && m.message === issue.message)) continue
    merged.push({ path, message: issue.message })
  }
  return merged
}

/** 'tests[2].params.bs' and 'plan.tests.2.params.bs' both become 'tests.2.params.bs'. */
export function normalizedPath(path: string): string {
  return path.replace(/\[([0-9]+)\]/g, '.$1').replace(/^plan\./, '').replace(/^\./, '')
}
/** Issues of one step. */
export function issuesOfStep(issues: readonly PlanIssue[], step: StepIndex): PlanIssue[] {
  return issues.filter((i) => stepOfPath(i.path) === step)
}

/** Where a problem is, for people: "Scenario › vm1 › disk cache". */
export function placeOf(path: string, draft: WizardDraft): string {
  const parts = path.split('.')
  const step = STEPS[stepOfPath(path)].title
  const [head, index, ...rest] = parts
  const i = Number(index)
  if (head === 'variants' && Number.isInteger(i)) {
    const name = draft.variants[i]?.target ?? `variant ${i + 1}`
    return [step, name, ...rest.map(humanField)].join(' › ')
  }
  if (head === 'tests' && Number.isInteger(i)) {
    const test = draft.tests[i]
    const name = test ? (test.kind === 'pack' ? `pack ${test.pack}` : `test ${test.id}`) : `test ${i + 1}`
    return [step, name, ...rest.map(humanField)].join(' › ')
  }
  if (path === 'baseline.target') return `${step} › baseline`
  return [step, ...parts.filter(Boolean).map(humanField)].join(' › ')
}

const FIELD_NAMES: Record<string, string> = {
  target: 'target',
  label: 'label',
  scenario: 'scenario',
  cache: 'disk cache',
  queues: 'queues',
  bus: 'disk bus',
  storage: 'storage',
  network: 'network',
  hypervisor: 'hypervisor',
  confirm: 'device confirmation',
  path: 'path',
  only: 'tests of the pack',
  params: 'parameters',
  peer: 'network peer',
  repetitions: 'repetitions',
  aggregate: 'aggregation',
  baseline: 'baseline',
  variants: 'guests',
  tests: 'tests',
  name: 'name',
  domain: 'libvirt domain',
  sweep: 'sweep',
  factors: 'factors',
  busDisk: 'disk moved',
  memoryMiB: 'memory (MiB)',
  nicQueues: 'NIC queues',
  vcpus: 'vCPUs',
  io: 'io mode'
}

/** "blockSize" → "block size"; known plan fields by the names the wizard shows. */
export function humanField(key: string): string {
  return FIELD_NAMES[key] ?? key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
}

// ---------------------------------------------------------------------------------------------
// Network paths

/** The machine whose server a variant's network tests talk to: the plan's peer, else the baseline. */
export function networkPeerName(draft: WizardDraft): string | undefined {
  return draft.network.peer ?? draft.baseline
}

export type PeerAddress = { address: string } | { missing: string }

/**
 * The address a variant's client uses to reach `peer` on a network path, as the engine picks it
 * (src/main/engine/runner.ts addressOf): the public (EIP) or private/VPC address when the path
 * says so, else the private address when the peer has one, else its SSH address.
 */
export function peerAddress(
  peer: { name: string; kind: 'ssh' | 'local'; address?: string; addresses: { private?: string; public?: string } },
  path: 'classic' | 'private' | 'eip' | undefined
): PeerAddress {
  if (path === 'eip') return peer.addresses.public ? { address: peer.addresses.public } : { missing: `${peer.name} has no public (EIP) address` }
  if (path === 'private') return peer.addresses.private ? { address: peer.addresses.private } : { missing: `${peer.name} has no private/VPC address` }
  return { address: peer.addresses.private ?? (peer.kind === 'local' ? '127.0.0.1' : (peer.address ?? '127.0.0.1')) }
}

// ---------------------------------------------------------------------------------------------
// Tools brought from this computer

/** The plan's tools that can come from this computer (iozone, UnixBench), from main's review of its jobs. */
export function archiveToolsOf(jobs: readonly { tool: ToolId }[] | undefined): ArchiveTool[] {
  const used = new Set(jobs?.map((j) => j.tool))
  return ARCHIVE_TOOLS.filter((tool) => used.has(tool))
}

/** What runs:start and plans:preflight carry: a file for each of `tools` whose path is filled in. */
export function toolArchivesOfDraft(draft: Pick<WizardDraft, 'toolArchives'>, tools: readonly ArchiveTool[]): ToolArchiveInput[] {
  return tools.flatMap((tool) => {
    const given = draft.toolArchives?.[tool]
    const path = given?.path.trim() ?? ''
    if (!given || path === '') return []
    const sha256 = given.sha256.trim()
    return [{ tool, path, ...(sha256 ? { sha256 } : {}) }]
  })
}
