import { z } from 'zod'
import { TargetRefSchema } from './model/plan'
import { DomainNameSchema, DomainSetupSchema } from './model/scenario'

/**
 * The scenario part of the API contract (docs/scenarios.md): what the wizard asks the guest's
 * physical host before a setup or a sweep is chosen (its libvirt domains), what each setup
 * would change in the domain's XML (read with `virsh dumpxml`, nothing changed), and how long
 * a sweep takes. The physical host is the guest's host in the inventory, else the baseline.
 */

/** Why the host could not answer, so the wizard can say what to do. */
export const DOMAIN_HOST_PROBLEMS = ['no-host', 'unreachable', 'sudo', 'no-virsh', 'no-domain', 'virsh-failed'] as const
export type DomainHostProblem = (typeof DOMAIN_HOST_PROBLEMS)[number]

const GuestOnHost = {
  guest: TargetRefSchema.describe('The guest whose domain is meant'),
  baseline: TargetRefSchema.optional().describe("The plan's baseline: the physical host when the guest has no host in the inventory")
}

const HostFailure = z.object({
  ok: z.literal(false),
  /** The host asked, when there is one. */
  host: z.string().optional(),
  problem: z.enum(DOMAIN_HOST_PROBLEMS),
  /** What happened, on which host, and what to do. */
  message: z.string()
})

export const DomainListSchema = z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), host: z.string(), domains: z.array(z.string()) }), HostFailure])
export type DomainList = z.infer<typeof DomainListSchema>

export const DomainChangeSchema = z.object({ what: z.string(), from: z.string(), to: z.string() })

/** One setup against the domain's configuration: its line diff and restarts, or why the domain cannot take it. */
export const SetupDiffSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** `virsh dumpxml --inactive` before and after, as a line diff; empty: nothing changes. */
    diff: z.string(),
    changes: z.array(DomainChangeSchema),
    /** Why the guest restarts for this setup; empty: no restart. */
    restarts: z.array(z.string())
  }),
  z.object({ ok: z.literal(false), errors: z.array(z.string()) })
])
export type SetupDiff = z.infer<typeof SetupDiffSchema>

export const DomainDiffSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), host: z.string(), domain: z.string(), setups: z.array(SetupDiffSchema) }),
  HostFailure
])
export type DomainDiff = z.infer<typeof DomainDiffSchema>

/** How the guest takes a change of its domain: a restart, applied live (no restart), or nothing to change. */
export const DOMAIN_CHANGE_KINDS = ['restart', 'live', 'none'] as const
const DomainChangeKind = z.enum(DOMAIN_CHANGE_KINDS)

/** The time of a sweep: each step's run as estimateRun has it, and the restarts between them. */
export const SweepEstimateSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    steps: z.array(
      z.object({
        label: z.string(),
        seconds: z.number(),
        jobs: z.number(),
        /** How the guest takes this step's change before its jobs. */
        change: DomainChangeKind,
        /** For a change applied live: what is set on the running guest ("vCPUs: 2 -> 4, applied live, no restart"). */
        live: z.array(z.string()).optional()
      })
    ),
    /** How the guest takes the restore after the last step. */
    restore: DomainChangeKind,
    /** Restarts of the guest counted in `seconds`: the steps' and the restore's. */
    restarts: z.number(),
    /** What one restart is counted (shutdown, start, boot until SSH answers). */
    restartSeconds: z.number(),
    /**
     * Where the restarts were told from: `domain`, the domain's XML as its host has it now (each
     * step as the sweep would define it); `plan`, the plan alone: every step and the restore counted
     * a restart, the most it may take.
     */
    restartsFrom: z.enum(['domain', 'plan']),
    /** Why the domain was not read, when a factor of the sweep (vCPUs, memory) may be applied live. */
    domainNote: z.string().optional(),
    seconds: z.number()
  }),
  z.object({ ok: z.literal(false), issues: z.array(z.object({ path: z.string(), message: z.string() })) })
])
export type SweepEstimate = z.infer<typeof SweepEstimateSchema>

export const scenarioInvokeContract = {
  /** The libvirt domains of the guest's physical host (`virsh list --all --name`). */
  'scenario:listDomains': { request: z.strictObject(GuestOnHost), response: DomainListSchema },
  /** What each setup would change in the domain (`virsh dumpxml --inactive`, then the pure editor); the domain is not changed. */
  'scenario:diff': {
    request: z.strictObject({
      ...GuestOnHost,
      domain: DomainNameSchema,
      setups: z.array(DomainSetupSchema).min(1, 'give at least one setup').max(256, 'at most 256 setups at once')
    }),
    response: DomainDiffSchema
  },
  /** How long the plan's sweep takes: every step's run and the guest's restarts. */
  'scenario:estimate': { request: z.strictObject({ plan: z.record(z.string(), z.unknown()) }), response: SweepEstimateSchema }
} as const
