import { z } from 'zod'
import { AcceptanceSchema } from './criteria'
import { DISK_BUSES, DISK_CACHES, DiskDeviceSchema, DomainNameSchema, DomainSetupSchema, HostPathSchema, IO_MODES, NETWORK_PATHS, ScenarioSchema, SWAP_BACKENDS, type NetworkPath } from './scenario'
import { TargetRoleSchema, type TargetRole } from './target'
import { AGGREGATES, PACK_IDS, TOOL_IDS } from './tool-ids'

/**
 * A comparison plan: a baseline, the variants measured against it, the tests, how often and
 * where. A preset is a plan saved as a versioned document (docs/presets.md). Targets are named,
 * never described: logins and secrets stay in the inventory and the OS keychain.
 */

const NAME = /^[^\p{Cc}]+$/u

/** A target of the inventory, by its name (names are unique, compared without case). */
export const TargetRefSchema = z
  .string()
  .trim()
  .min(1, 'name a target of the inventory')
  .max(64, 'a target name is at most 64 characters')
  .regex(NAME, 'a target name has no control characters')
export type TargetRef = z.infer<typeof TargetRefSchema>

export const TEST_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/

export const TestIdSchema = z
  .string()
  .regex(TEST_ID, 'a test id is 1 to 64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit')

/** The tests of a study pack, all or some. */
export const PackChoiceSchema = z.strictObject({
  pack: z.enum(PACK_IDS).describe('A study pack (virtbench packs lists them)'),
  form: z.enum(['full', 'quick']).default('full').describe('full: the study as published; quick: the same shapes at small sizes'),
  only: z.array(TestIdSchema).min(1).optional().describe('Run only these tests of the pack (by test id)')
})
export type PackChoice = z.infer<typeof PackChoiceSchema>

/** One test written out: a tool and its parameters. */
export const CustomTestSchema = z.strictObject({
  id: TestIdSchema.describe('Unique within the plan'),
  title: z.string().trim().min(1).max(120).regex(NAME).optional(),
  tool: z.enum(TOOL_IDS),
  params: z.record(z.string(), z.unknown()).default({}).describe("The tool's parameters (docs/metrics.md and the tool's schema)"),
  repetitions: z.number().int().min(1).max(100).optional().describe('Overrides the plan repetitions for this test'),
  aggregate: z.enum(AGGREGATES).optional().describe('Overrides the plan aggregation for this test')
})
export type CustomTest = z.infer<typeof CustomTestSchema>

export const TestChoiceSchema = z.union([PackChoiceSchema, CustomTestSchema])
export type TestChoice = z.infer<typeof TestChoiceSchema>

export const VariantSchema = z.strictObject({
  target: TargetRefSchema.describe('The guest measured'),
  label: z.string().trim().min(1).max(80).regex(NAME).optional().describe('How tables name this variant (default: the target name)'),
  scenario: ScenarioSchema.default({})
})
export type Variant = z.infer<typeof VariantSchema>

/** Values of one swept factor: at least one, none twice. */
function values<T extends z.ZodType>(value: T, what: string) {
  return z
    .array(value)
    .min(1, `give at least one ${what}`)
    .max(16, `at most 16 values of ${what}`)
    .refine((v) => new Set(v.map((x) => JSON.stringify(x))).size === v.length, `a value of ${what} appears twice`)
}

/**
 * A sweep: one guest measured under every combination of the factors' values, each applied to
 * its libvirt domain by VirtBench and undone after the run (docs/scenarios.md). It expands to
 * one variant per combination, in the order of the factors as listed here.
 */
export const SweepSchema = z.strictObject({
  target: TargetRefSchema.describe("The guest swept; its physical host (where virsh runs) is its host in the inventory, else the baseline"),
  domain: DomainNameSchema.describe("The guest's libvirt domain on its physical host"),
  scenario: ScenarioSchema.omit({ setup: true, domain: true }).default({}).describe('Labels every combination shares (hypervisor, storage...)'),
  factors: z
    .strictObject({
      cache: values(z.enum(DISK_CACHES).describe('A cache mode'), 'cache').optional().describe('Cache modes of the disks'),
      io: values(z.enum(IO_MODES).describe('An io mode'), 'io').optional().describe('io modes of the disks'),
      queues: values(z.number().int().min(1).max(64).describe('A queue count'), 'queues').optional().describe('virtio queues of the disks'),
      bus: values(z.enum(DISK_BUSES).describe('A bus'), 'bus').optional().describe('Buses the data disk busDisk is moved to'),
      storage: values(z.enum(SWAP_BACKENDS).describe('A storage backend'), 'storage').optional().describe('Storage backends the disks of "storage" are swapped between'),
      vcpus: values(z.number().int().min(1).max(512).describe('A vCPU count'), 'vcpus').optional().describe('vCPU counts'),
      memoryMiB: values(z.number().int().min(64).max(16 * 1024 * 1024).describe('MiB'), 'memoryMiB').optional().describe('Memory sizes in MiB'),
      nicQueues: values(z.number().int().min(1).max(256).describe('A queue count'), 'nicQueues').optional().describe('virtio-net queues of every interface')
    })
    .refine((f) => Object.values(f).some((v) => v !== undefined), 'sweep at least one factor')
    .describe('The values of each factor; every combination is measured'),
  busDisk: DomainSetupSchema.shape.bus.unwrap().shape.disk.optional().describe('The data disk the bus factor moves (its <target dev>)'),
  disks: DomainSetupSchema.shape.disks.describe('The disks cache, io and queues apply to (default: every disk)'),
  storage: z
    .record(DiskDeviceSchema, z.partialRecord(z.enum(SWAP_BACKENDS), HostPathSchema).describe("The data disk's prepared disk per backend"))
    .optional()
    .describe('For the storage factor: each data disk (its <target dev>) and its prepared disk per backend, such as { "vdb": { "file-raw": "/var/lib/libvirt/images/d.raw", "lvm": "/dev/vg0/bench" } }'),
  storageBootDisk: z.boolean().optional().describe('Allow the storage factor to swap the disk the guest boots from'),
  order: z
    .enum(['grouped', 'interleaved'])
    .default('grouped')
    .describe('grouped: all repetitions of one combination, then the next (one reconfiguration each); interleaved: every combination once per round (a reconfiguration before each)')
})
export type SweepInput = z.input<typeof SweepSchema>
export type Sweep = z.output<typeof SweepSchema>

export const BaselineSchema = z.strictObject({
  target: TargetRefSchema.describe('The machine that is 100 %: usually the physical host'),
  label: z.string().trim().min(1).max(80).regex(NAME).optional()
})
export type Baseline = z.infer<typeof BaselineSchema>

const DEVICE = /^\/dev\/[A-Za-z0-9._+@:/-]+$/

/** Where storage tests write on a target when the plan does not say (`~` is the login's home). */
export const DEFAULT_WORK_DIR = '~/virtbench-work'

/** Where storage tests write: a directory (files are created and removed), or a raw device. */
export const StorageTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('directory'),
    path: z
      .string()
      .min(1)
      .max(4096)
      .regex(/^(\/|~\/|~$)[^\p{Cc}]*$/u, 'the work directory must be an absolute path (or start with ~/)')
      .refine((p) => !p.split('/').includes('..'), "the work directory cannot contain '..'")
      .default(DEFAULT_WORK_DIR)
  }),
  z
    .strictObject({
      kind: z.literal('device'),
      path: z
        .string()
        .regex(DEVICE, 'a device is a path such as /dev/vdb')
        .refine((p) => !p.split('/').includes('..'), "a device path cannot contain '..'"),
      confirm: z
        .string()
        .describe('The device path typed again: every byte on it is overwritten. The run refuses to start unless it matches.')
    })
    .refine((d) => d.confirm === d.path, {
      message: 'a raw-device test destroys the data on the device: type its path again in "confirm" to say you mean it',
      path: ['confirm']
    })
])
export type StorageTarget = z.infer<typeof StorageTargetSchema>

export const NetworkSetupSchema = z.strictObject({
  peer: TargetRefSchema.optional().describe(
    'The machine whose server every measured target talks to (for a baseline-vs-variant comparison); ' +
      'without it, the baseline is the peer of each variant and the variants are the peer of the baseline'
  ),
  matrix: z.boolean().default(false).describe('Also measure every ordered pair of the plan\'s targets (as study 001\'s network table)'),
  simultaneous: z.boolean().default(false).describe('Also run every measured target\'s client at once against the peer (as study 000\'s contention test)'),
  paths: z
    .array(z.enum(NETWORK_PATHS).describe('A network path: classic, private (the private/VPC address) or eip (the public address)'))
    .min(1)
    .refine((p) => new Set(p).size === p.length, 'a network path appears twice')
    .optional()
    .describe(
      'Measure the matrix over each of these network paths, each as jobs of its own (as study 001\'s VPC table: physical, VM, EIP): ' +
        'classic and private between every ordered pair, eip between the guests only; each peer needs the address its path dials'
    ),
  peerRole: TargetRoleSchema.optional().describe('What network.peer is in the study tables: a physical host (the default) or a guest')
})
export type NetworkSetup = z.infer<typeof NetworkSetupSchema>

export const ScheduleSchema = z.strictObject({
  order: z
    .enum(['grouped', 'interleaved'])
    .default('interleaved')
    .describe('interleaved: A B A B..., so that drift hits baseline and variants equally; grouped: all repetitions of one target in a row'),
  parallelTargets: z.boolean().default(false).describe('Run independent targets at the same time (they may disturb each other)')
})
export type Schedule = z.infer<typeof ScheduleSchema>

/**
 * Adaptive repetitions: after the plan's repetitions, the engine adds interleaved rounds (one
 * more repetition on every side) to each test until the 95 % interval of every primary ratio is
 * within ± `halfWidthPct` points, the test has `maxRepetitions`, or the run has spent
 * `budgetSeconds` on extra rounds.
 */
export const PrecisionSchema = z.strictObject({
  halfWidthPct: z
    .number()
    .min(0.1, 'halfWidthPct must be at least 0.1 points')
    .max(50, 'halfWidthPct can be at most 50 points')
    .describe("Stop once the 95 % interval of each primary figure's relative % is within ± this many points"),
  maxRepetitions: z.number().int().min(2).max(100).default(10).describe('Never more repetitions of one test than this'),
  budgetSeconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .optional()
    .describe('Seconds the extra rounds may take in all (estimated before each round); unset: no limit but maxRepetitions')
})
export type Precision = z.infer<typeof PrecisionSchema>

export const ComparisonPlanSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'a comparison needs a name').max(120).regex(NAME),
    baseline: BaselineSchema,
    variants: z.array(VariantSchema),
    tests: z.array(TestChoiceSchema).min(1, 'choose at least one test or pack'),
    repetitions: z.number().int().min(1).max(100).default(3),
    aggregate: z.enum(AGGREGATES).default('median'),
    storage: StorageTargetSchema.default({ kind: 'directory', path: DEFAULT_WORK_DIR }),
    network: NetworkSetupSchema.default({ matrix: false, simultaneous: false }),
    schedule: ScheduleSchema.default({ order: 'interleaved', parallelTargets: false }),
    equivalenceMarginPct: z
      .number()
      .min(0.1, 'equivalenceMarginPct must be at least 0.1 points')
      .max(50, 'equivalenceMarginPct can be at most 50 points')
      .default(3)
      .describe('A result is "same" as the baseline when its whole 95 % interval lies within 100 % ± this many points'),
    precision: PrecisionSchema.optional().describe('Add repetitions until each primary figure is this precise (adaptive repetitions)'),
    warmup: z.boolean().default(false).describe('Run each test once on each target before measuring; kept in the run, never counted'),
    idleSeconds: z
      .number()
      .int()
      .min(0)
      .max(60)
      .optional()
      .describe('Seconds the preflight idle check samples each target, while the other checks run (default 3; 1 when every test is a quick pack form; 0: no idle check)'),
    acceptance: AcceptanceSchema.optional().describe('Acceptance criteria: what the run must show to pass (virtbench run exits 3 when one fails; docs/presets.md)'),
    sweep: SweepSchema.optional().describe('Measure one guest under every combination of scenario factors, applied by VirtBench (docs/scenarios.md)')
  })
  .superRefine((plan, ctx) => {
    if (plan.variants.length === 0 && !plan.sweep) ctx.addIssue({ code: 'custom', path: ['variants'], message: 'a comparison needs at least one variant' })
    plan.variants.forEach((v, i) => {
      if (v.scenario.setup && !v.scenario.domain) {
        ctx.addIssue({ code: 'custom', path: ['variants', i, 'scenario', 'domain'], message: 'a scenario setup is applied to a libvirt domain: name it in "domain"' })
      }
    })
    if (plan.network.paths && !plan.network.matrix) {
      ctx.addIssue({ code: 'custom', path: ['network', 'paths'], message: 'network paths are measured as the matrix: set network.matrix to true, or remove network.paths' })
    }
    if (plan.network.paths?.includes('eip') && networkMachines(plan).filter((m) => m.role === 'guest').length < 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['network', 'paths'],
        message: 'the eip path is measured from a guest\'s EIP to another guest\'s (study 001\'s "EIP to EIP"): the plan needs two guests (two variants, or a variant and a peer with peerRole "guest")'
      })
    }
    const sweepStorage = plan.sweep?.storage
    if (plan.sweep?.factors.storage && !sweepStorage) {
      ctx.addIssue({ code: 'custom', path: ['sweep', 'storage'], message: 'sweeping the storage backend points data disks at prepared disks: name each disk and its prepared disk per backend in "storage", such as { "vdb": { "file-raw": "/var/lib/libvirt/images/d.raw" } }' })
    }
    for (const [dev, paths] of Object.entries(sweepStorage ?? {})) {
      for (const backend of plan.sweep?.factors.storage ?? []) {
        if (!paths[backend]) ctx.addIssue({ code: 'custom', path: ['sweep', 'storage', dev], message: `the storage factor has ${backend}, but ${dev} has no prepared disk for it: add "${backend}": "/path/on/the/host" to storage.${dev}, or remove ${backend} from the factor` })
      }
    }
    if (sweepStorage && !plan.sweep?.factors.storage) {
      ctx.addIssue({ code: 'custom', path: ['sweep', 'storage'], message: 'storage names prepared disks for the storage factor: add factors.storage (such as ["file-raw", "lvm"]), or remove storage' })
    }
    if (plan.sweep?.factors.bus && !plan.sweep.busDisk) {
      ctx.addIssue({ code: 'custom', path: ['sweep', 'busDisk'], message: 'sweeping the bus moves one data disk: name it in "busDisk" (its <target dev>, such as vdc)' })
    }
    const seen = new Map<string, string>()
    const claim = (name: string, where: string, path: (string | number)[]): void => {
      const key = name.toLowerCase()
      const first = seen.get(key)
      if (first) ctx.addIssue({ code: 'custom', path, message: `${name} is already ${first}; each target appears once in a comparison` })
      else seen.set(key, where)
    }
    claim(plan.baseline.target, 'the baseline', ['baseline', 'target'])
    plan.variants.forEach((v, i) => claim(v.target, `variant ${i + 1}`, ['variants', i, 'target']))
    const labels = new Set<string>()
    plan.variants.forEach((v, i) => {
      const label = (v.label ?? v.target).toLowerCase()
      if (labels.has(label)) ctx.addIssue({ code: 'custom', path: ['variants', i, 'label'], message: `two variants are called ${v.label ?? v.target}` })
      labels.add(label)
    })
    const ids = new Set<string>()
    plan.tests.forEach((t, i) => {
      if ('tool' in t) {
        if (ids.has(t.id)) ctx.addIssue({ code: 'custom', path: ['tests', i, 'id'], message: `two tests have the id ${t.id}` })
        ids.add(t.id)
      }
    })
  })
export type ComparisonPlanInput = z.input<typeof ComparisonPlanSchema>
export type ComparisonPlan = z.output<typeof ComparisonPlanSchema>

export const PRESET_KIND = 'virtbench-preset'
/**
 * The preset format version. 2 added `sweep`, a variant's `scenario.setup`, `network.paths`,
 * `network.peerRole`, `acceptance` and `precision`; a version-1 preset is read as is
 * (PRESET_MIGRATIONS in src/main/presets/presets.ts, docs/presets.md "Versions").
 */
export const PRESET_VERSION = 2

export const PresetSchema = z.strictObject({
  kind: z.literal(PRESET_KIND),
  version: z.literal(PRESET_VERSION),
  description: z.string().max(2000).optional(),
  plan: ComparisonPlanSchema
})
export type PresetInput = z.input<typeof PresetSchema>
export type Preset = z.output<typeof PresetSchema>

/** A machine of a network matrix: its target name, and whether it is a physical host or a guest. */
export interface NetworkMachine {
  target: string
  role: TargetRole
}

/**
 * The machines of a plan's network matrix, in order, and what each is: the baseline a physical
 * host, the variants guests, a separate peer as `network.peerRole` says (a physical host unless
 * told). The study tables group the matrix by these roles (physical to physical, VM to VM).
 */
export function networkMachines(plan: { baseline: { target: string }; variants: readonly { target: string }[]; network: { peer?: string; peerRole?: TargetRole } }): NetworkMachine[] {
  const machines: NetworkMachine[] = [{ target: plan.baseline.target, role: 'host' }, ...plan.variants.map((v) => ({ target: v.target, role: 'guest' as const }))]
  const peer = plan.network.peer
  if (peer && !machines.some((m) => m.target.toLowerCase() === peer.toLowerCase())) machines.push({ target: peer, role: plan.network.peerRole ?? 'host' })
  return machines
}

/** Whether a matrix over `path` measures between these two machines: the EIP path between guests only. */
export function pathCovers(path: NetworkPath | undefined, from: NetworkMachine, to: NetworkMachine): boolean {
  return path !== 'eip' || (from.role === 'guest' && to.role === 'guest')
}

/** The name tables use for a variant. */
export function variantLabel(v: Variant): string {
  return v.label ?? v.target
}
