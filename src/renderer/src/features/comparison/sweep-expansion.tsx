import { useEffect, useMemo, useState, type ReactElement } from 'react'
import type { SweepEstimate } from '../../../../shared/scenario-contract'
import { sameTargetName } from '../../../../shared/model/target'
import type { SweepVariant } from '../../../../shared/sweep/expand'
import { apiMessage } from '../../lib/api-message'
import { useAppStore } from '../../store'
import { planKey } from '../../store/wizard-slice'
import { combinationsOf, FACTOR_NAMES, FACTOR_WORDS, matrixFactors, valueText, type SweepFactor } from '../../models/sweep-draft'
import { formatDuration, planOfDraft } from '../../models/wizard-draft'

/** How long after the last change the time is asked for (as the review waits). */
const ESTIMATE_DELAY_MS = 300

/**
 * What the sweep expands to, as the values are chosen: its combinations (a matrix for two
 * factors) and the time main estimates for it: each step's run as a run is estimated, and the
 * guest's restarts (scenario:estimate).
 */
export function SweepExpansion(): ReactElement | null {
  const draft = useAppStore((s) => s.wizardDraft)
  const sweep = draft.sweep
  const scenario = sweep ? draft.variants.find((v) => sameTargetName(v.target, sweep.target))?.scenario : undefined
  const combos = useMemo(() => (sweep ? combinationsOf(sweep, scenario) : undefined), [sweep, scenario])
  const matrix = useMemo(() => (sweep ? matrixFactors(sweep, scenario) : undefined), [sweep, scenario])
  if (!sweep) return null
  return (
    <section className="wiz-sweep-expansion" aria-label="Combinations">
      <h4>Combinations</h4>
      {!combos ? (
        <p className="muted">The combinations appear once every swept factor has its values and the domain is named.</p>
      ) : (
        <>
          <p>
            <strong>{combos.length}</strong> combination{combos.length === 1 ? '' : 's'} of {sweep.target} ({sweep.domain.trim()}), in this order:
          </p>
          {matrix ? <ComboMatrix combos={combos} rows={matrix[0]} columns={matrix[1]} /> : <ComboList combos={combos} />}
        </>
      )}
      <SweepTime enabled={combos !== undefined} />
    </section>
  )
}

/** The review's list of the sweep's combinations, each a variant of the swept guest measured in a step of its own. */
export function SweepCombinations(): ReactElement | null {
  const draft = useAppStore((s) => s.wizardDraft)
  const sweep = draft.sweep
  const scenario = sweep ? draft.variants.find((v) => sameTargetName(v.target, sweep.target))?.scenario : undefined
  const combos = useMemo(() => (sweep ? combinationsOf(sweep, scenario) : undefined), [sweep, scenario])
  if (!sweep) return null
  if (!combos) return <span className="muted">none yet: choose the values of every swept factor and name the domain</span>
  return (
    <ol className="wiz-summary-list" aria-label="Combinations of the sweep">
      {combos.map((c) => (
        <li key={c.label}>
          <strong>{sweep.target}</strong> <span className="muted">({sweep.domain.trim()})</span>: {c.label}
        </li>
      ))}
    </ol>
  )
}

function ComboList({ combos }: { combos: SweepVariant[] }): ReactElement {
  return (
    <ol className="wiz-sweep-combos" aria-label="Combinations in order">
      {combos.map((c) => (
        <li key={c.label} className="mono">
          {c.label}
        </li>
      ))}
    </ol>
  )
}

/** Two factors as a table: the first's values down, the second's across; each cell its place in the order. */
function ComboMatrix({ combos, rows, columns }: { combos: SweepVariant[]; rows: SweepFactor; columns: SweepFactor }): ReactElement {
  const distinct = (factor: SweepFactor): (string | number)[] => [...new Set(combos.map((c) => c.values[factor]!))]
  const rowValues = distinct(rows)
  const columnValues = distinct(columns)
  const indexOf = (r: string | number, c: string | number): number => combos.findIndex((x) => x.values[rows] === r && x.values[columns] === c)
  return (
    <table className="wiz-sweep-matrix">
      <caption className="muted">
        {FACTOR_NAMES[rows]} × {FACTOR_WORDS[columns]}: each cell is one combination, numbered in the order it is measured
      </caption>
      <thead>
        <tr>
          <th scope="col">{FACTOR_NAMES[rows]}</th>
          {columnValues.map((c) => (
            <th key={String(c)} scope="col">
              {valueText(columns, c)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rowValues.map((r) => (
          <tr key={String(r)}>
            <th scope="row">{valueText(rows, r)}</th>
            {columnValues.map((c) => (
              <td key={String(c)} className="mono">
                #{indexOf(r, c) + 1} {`${rows}=${r}, ${columns}=${c}`}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The sweep's time from main, asked again a moment after the plan stops changing (the scenario step and the review show it). */
export function SweepTime({ enabled, className = 'wiz-sweep-time' }: { enabled: boolean; className?: string }): ReactElement {
  const api = useAppStore((s) => s.api)
  const draft = useAppStore((s) => s.wizardDraft)
  const plan = useMemo(() => planOfDraft(draft), [draft])
  const key = planKey(plan)
  const [answer, setAnswer] = useState<{ key: string; estimate?: SweepEstimate; error?: string }>()

  useEffect(() => {
    if (!api || !enabled) return
    let live = true
    const timer = setTimeout(() => {
      api.invoke('scenario:estimate', { plan: plan as Record<string, unknown> }).then(
        (estimate) => live && setAnswer({ key, estimate }),
        (error: unknown) => live && setAnswer({ key, error: apiMessage(error) })
      )
    }, ESTIMATE_DELAY_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [api, enabled, key, plan])

  const current = answer?.key === key ? answer : undefined
  const estimate = current?.estimate
  let text: string
  if (!enabled) text = 'The time is estimated once the combinations are known.'
  else if (current?.error) text = `The time could not be estimated: ${current.error}`
  else if (!estimate) text = 'Estimating the time…'
  else if (!estimate.ok) text = `The time is estimated once the plan has no problems (${estimate.issues[0]?.message ?? 'see the review'}).`
  else {
    const runs = estimate.steps.reduce((sum, s) => sum + s.seconds, 0)
    text =
      `Estimated time: ${formatDuration(estimate.seconds)} (${estimate.steps.length} run${estimate.steps.length === 1 ? '' : 's'}, one per step with the baseline measured in each: ${formatDuration(runs)}; ` +
      `${restartsText(estimate)}).`
  }
  return (
    <p className={className} role="status">
      {text}
    </p>
  )
}

/** "a, b and c" */
function inWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`
}

/**
 * The restarts the time counts: from the plan alone, the most it may take (one per step and the
 * restore); told from the domain's XML, which steps restart, and each step that does not (applied
 * live, or the domain has it already) said so.
 */
export function restartsText(estimate: Extract<SweepEstimate, { ok: true }>): string {
  const each = `counted ${estimate.restartSeconds} s each as in the lab under TCG; a KVM guest boots faster`
  if (estimate.restartsFrom === 'plan') {
    const note = estimate.domainNote ? `; whether a change of vCPUs or memory is applied live, without a restart, is told once the domain is read: ${estimate.domainNote}` : ''
    return `up to ${estimate.restarts} restarts of the guest, one per step and the restore, ${each}${note}`
  }
  const restarting = estimate.steps.flatMap((s, i) => (s.change === 'restart' ? [`step ${i + 1}`] : []))
  if (estimate.restore === 'restart') restarting.push('the restore')
  const counted =
    estimate.restarts === 0
      ? 'no restart of the guest, as its domain’s XML says'
      : `${estimate.restarts} restart${estimate.restarts === 1 ? '' : 's'} of the guest (${inWords(restarting)}), as its domain’s XML says, ${each}`
  const without = estimate.steps.flatMap((s, i) => {
    if (s.change === 'live') return [`step ${i + 1}, ${s.label}: ${inWords(s.live ?? ['applied live, no restart'])}`]
    return s.change === 'none' ? [`step ${i + 1}, ${s.label}: the domain has it already, no restart`] : []
  })
  if (estimate.restore === 'live') without.push('the restore: applied live, no restart')
  return [counted, ...without].join('; ')
}
