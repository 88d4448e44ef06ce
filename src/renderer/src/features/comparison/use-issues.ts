import { useMemo } from 'react'
import type { PlanIssue } from '../../../../shared/catalog-contract'
import { useAppStore } from '../../store'
import { planKey } from '../../store/wizard-slice'
import { localIssues, mergedIssues, planOfDraft, stepOfPath } from '../../models/wizard-draft'

export interface WizardIssues {
  /** Every problem of the plan: found here, then main's review (the latest one). */
  all: PlanIssue[]
  /** The message to show beside the field at `path`, when that field's problems are shown. */
  errorAt: (path: string) => string | undefined
  /** The same for a field and its parts ('tests.0.only' and 'tests.0.only.1'). */
  errorUnder: (path: string) => string | undefined
  /** The current plan's JSON. */
  key: string
  /** Main's review of exactly the current plan, once it has answered. */
  current: boolean
}

/** The plan's problems, and which of them are shown beside their fields right now. */
export function useWizardIssues(): WizardIssues {
  const draft = useAppStore((s) => s.wizardDraft)
  const checked = useAppStore((s) => s.wizardChecked)
  const review = useAppStore((s) => s.wizardReview)
  const targets = useAppStore((s) => s.targets)

  return useMemo(() => {
    const inventory = targets?.map((v) => v.target.name)
    const key = planKey(planOfDraft(draft))
    const all = mergedIssues(localIssues(draft, inventory), review?.review?.issues)
    const shown = (path: string): boolean => {
      if (checked[stepOfPath(path)]) return true
      // Parameters are checked by main as they are typed: their messages are the point.
      if (/^tests\.[0-9]+\.params/.test(path)) return true
      if (path === 'storage.confirm') return draft.storage.confirm !== '' && draft.storage.confirm.length >= draft.storage.device.trim().length
      return false
    }
    return {
      all,
      key,
      current: review?.key === key && review.review !== undefined,
      errorAt: (path) => (shown(path) ? all.find((i) => i.path === path)?.message : undefined),
      errorUnder: (path) => (shown(path) ? all.find((i) => i.path === path || i.path.startsWith(`${path}.`))?.message : undefined)
    }
  }, [draft, checked, review, targets])
}
