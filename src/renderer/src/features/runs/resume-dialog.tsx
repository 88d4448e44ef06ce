import { useEffect, useMemo, useRef, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import { Dialog } from '../../components/dialog'
import { consentText, domainsChanged, physicalHostName, type DomainChangeConsent } from '../../models/sweep-draft'
import { useAppStore } from '../../store'
import { sweepRemainder } from './resume-consent'

/**
 * The libvirt domains a run changes (its sweep's, a variant's setup), each with its physical host
 * as the wizard names it: a resume that goes on needs the user's consent for them again.
 */
export function useDomainsToChange(run: RunDocument): DomainChangeConsent[] {
  const targets = useAppStore((s) => s.targets)
  return useMemo(() => {
    const inventory = (targets ?? []).map((v) => ({ id: v.target.id, name: v.target.name, ...(v.target.hostId ? { hostId: v.target.hostId } : {}) }))
    return domainsChanged(run.plan, (guest) => physicalHostName(guest, run.plan.baseline.target, inventory))
  }, [run.plan, targets])
}

/**
 * Asks before a run that changes libvirt domains is resumed (docs/runs.md#a-sweep-on-disk): the
 * wizard's consent sentence, naming each domain and host, and for a sweep the combinations it still
 * measures. Confirm resumes with `changeDomains`; Cancel resumes nothing.
 */
export function ResumeDialog({
  run,
  changes,
  onConfirm,
  onCancel
}: {
  run: RunDocument
  changes: DomainChangeConsent[]
  onConfirm: () => void
  onCancel: () => void
}): ReactElement {
  const cancelButton = useRef<HTMLButtonElement>(null)
  const listed = useAppStore((s) => s.runs !== undefined)
  const summary = useAppStore((s) => s.runs?.find((r) => r.id === run.id))
  const loadRuns = useAppStore((s) => s.loadRuns)
  const completed = summary?.sweep?.completed
  const remainder = useMemo(() => (completed === undefined ? undefined : sweepRemainder(run.plan, completed)), [run.plan, completed])
  const sweep = run.plan.sweep !== undefined

  // Opened from the run page before the history was read: the completed steps come with the list.
  useEffect(() => {
    if (sweep && !listed) void loadRuns()
  }, [sweep, listed, loadRuns])

  return (
    <Dialog
      title={sweep ? 'Resume this sweep?' : 'Resume this run?'}
      role="alertdialog"
      size="small"
      initialFocus={cancelButton}
      onCancel={onCancel}
      footer={
        <>
          <button ref={cancelButton} type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button button-primary" onClick={onConfirm}>
            Change the domain and resume
          </button>
        </>
      }
    >
      <p>{consentText(changes)}</p>
      {sweep ? <SweepRest remainder={remainder} listed={listed} /> : null}
      <p className="muted">Cancel resumes nothing: the run stays as it is, and its domain as it was left.</p>
    </Dialog>
  )
}

function SweepRest({ remainder, listed }: { remainder: ReturnType<typeof sweepRemainder>; listed: boolean }): ReactElement {
  if (!remainder) {
    return (
      <p className="muted" role="status">
        {listed ? 'The steps that did not complete are measured; the completed ones are kept.' : 'Reading the sweep\u2019s steps…'}
      </p>
    )
  }
  return (
    <>
      <p>
        {`Still to measure: ${remainder.steps} ${remainder.steps === 1 ? 'step' : 'steps'}${remainder.combinations.length > 0 ? ', under these combinations:' : '.'}`}
      </p>
      {remainder.combinations.length > 0 ? (
        <ul className="runs-resume-combinations" aria-label="Combinations still to measure">
          {remainder.combinations.map((label) => (
            <li key={label}>{label}</li>
          ))}
        </ul>
      ) : null}
    </>
  )
}
