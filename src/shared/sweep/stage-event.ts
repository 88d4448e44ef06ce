/**
 * One stage of a change of a libvirt domain, as a run tells it (a `stage` event's `domain`): the
 * run view and the CLI read these instead of the stage's text (docs/scenarios.md#applying-step-by-step).
 * Pure data.
 */

/** The stages of a reconfiguration, in order, then the restore at the end of the run (or the sweep). */
export const DOMAIN_STAGE_KINDS = ['define', 'restart', 'ssh', 'verify', 'jobs', 'restore'] as const
export type DomainStageKind = (typeof DOMAIN_STAGE_KINDS)[number]

export const DOMAIN_STAGE_STATUSES = ['running', 'done', 'skipped', 'failed'] as const
export type DomainStageStatus = (typeof DOMAIN_STAGE_STATUSES)[number]

export interface DomainStageEvent {
  kind: DomainStageKind
  domain: string
  /** The physical host whose virsh changes the domain. */
  host?: string
  /** The guest measured under the domain. */
  guest?: string
  /** The sweep's combination this stage is for ("cache=none, queues=2"); absent outside a sweep. */
  combination?: string
  /** Which step of the sweep (1-based) of how many; absent outside a sweep. */
  step?: { index: number; total: number }
  status: DomainStageStatus
  /** What was said about it: the changes, the checks, why it failed. */
  detail?: string
}
