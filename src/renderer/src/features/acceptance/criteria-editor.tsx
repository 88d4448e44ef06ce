import { useMemo, type ReactElement } from 'react'
import { Field } from '../../components/field'
import { criterionName } from '../../../../shared/criteria'
import { AcceptanceSchema, CriterionSchema, type AcceptanceInput, type CriterionInput } from '../../../../shared/model/criteria'
import { METRIC_CATEGORIES } from '../../../../shared/model/sample'
import './acceptance.css'

/**
 * The acceptance criteria of a plan, edited in the wizard's review step and saved with the preset
 * (docs/presets.md#acceptance-criteria). Controlled: `value` is the plan's `acceptance` (undefined:
 * none), `onChange` gives the new one. Each criterion is checked with the plan's own schema and its
 * problem shown beside it, with the name it will be reported under.
 */
export interface CriteriaEditorProps {
  value: AcceptanceInput | undefined
  onChange: (value: AcceptanceInput | undefined) => void
  /** The plan's tests (ids and titles) and variants (labels), offered as scopes. */
  tests: readonly { id: string; title: string }[]
  variants: readonly string[]
}

type Kind = 'at-least' | 'at-most' | 'between' | 'no-inconclusive' | 'no-slower'

const KIND_WORDS: Record<Kind, string> = {
  'at-least': 'at least',
  'at-most': 'at most',
  between: 'between',
  'no-inconclusive': 'none inconclusive',
  'no-slower': 'none slower'
}

function kindOf(c: CriterionInput): Kind {
  if (c.noInconclusive) return 'no-inconclusive'
  if (c.noSlower) return 'no-slower'
  if (c.atLeastPct !== undefined && c.atMostPct !== undefined) return 'between'
  return c.atMostPct !== undefined ? 'at-most' : 'at-least'
}

/** The criterion with another kind, keeping its name and scope and what bounds still apply. */
export function withKind(c: CriterionInput, kind: Kind): CriterionInput {
  const { atLeastPct, atMostPct, noInconclusive: _n, noSlower: _s, inconclusive, ...rest } = c
  switch (kind) {
    case 'no-inconclusive':
      return { ...rest, noInconclusive: true }
    case 'no-slower':
      return { ...rest, noSlower: true }
    case 'at-least':
      return { ...rest, atLeastPct: atLeastPct ?? 90, ...(inconclusive ? { inconclusive } : {}) }
    case 'at-most':
      return { ...rest, atMostPct: atMostPct ?? 110, ...(inconclusive ? { inconclusive } : {}) }
    case 'between':
      return { ...rest, atLeastPct: atLeastPct ?? 90, atMostPct: atMostPct ?? 110, ...(inconclusive ? { inconclusive } : {}) }
  }
}

/** A bound as its input shows it: empty while it is being typed (NaN) or absent. */
const shown = (v: number | undefined): number | string => (v !== undefined && Number.isFinite(v) ? v : '')

const NEW_CRITERION: CriterionInput = { scope: {}, atLeastPct: 90 }

export function CriteriaEditor({ value, onChange, tests, variants }: CriteriaEditorProps): ReactElement {
  const criteria = useMemo(() => value?.criteria ?? [], [value])
  const problems = useMemo(() => criteria.map((c) => CriterionSchema.safeParse(c)), [criteria])
  const set = (next: CriterionInput[]): void => onChange(next.length > 0 ? { ...value, criteria: next } : undefined)
  const update = (i: number, c: CriterionInput): void => set(criteria.map((old, j) => (j === i ? c : old)))
  const scope = (i: number, field: 'category' | 'test' | 'metric' | 'variant', v: string): void => {
    const c = criteria[i]!
    const { [field]: _old, ...others } = c.scope ?? {}
    update(i, { ...c, scope: v === '' ? others : { ...others, [field]: v } })
  }
  return (
    <section className="criteria-editor" aria-label="Acceptance criteria">
      <p className="muted">
        What a run must show to pass. Bounds are on relative % (100 % = as good as the baseline, more is better, latency too); a figure passes when its whole 95 %
        interval is on the right side. <code>virtbench run</code> exits 3 when one fails.
      </p>
      {criteria.length === 0 ? <p className="muted">No criteria: every run passes.</p> : null}
      <ol className="criteria-editor-list">
        {criteria.map((c, i) => {
          const kind = kindOf(c)
          const checked = problems[i]!
          const problem = checked.success ? undefined : checked.error.issues.map((x) => `${x.path.join('.') || 'criterion'}: ${x.message}`).join('; ')
          return (
            <li key={i} className="criteria-editor-item card">
              <div className="criteria-editor-row">
                <Field label="Figures of category">
                  {(p) => (
                    <select {...p} value={c.scope?.category ?? ''} onChange={(e) => scope(i, 'category', e.target.value)}>
                      <option value="">any</option>
                      {METRIC_CATEGORIES.map((k) => (
                        <option key={k} value={k}>
                          {k}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label="Test">
                  {(p) => (
                    <select {...p} value={c.scope?.test ?? ''} onChange={(e) => scope(i, 'test', e.target.value)}>
                      <option value="">any</option>
                      {tests.map((t) => (
                        <option key={t.id} value={t.id}>
                          {t.title}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label="Metric" hint="e.g. ping.rtt.avg; empty: any">
                  {(p) => <input {...p} type="text" value={c.scope?.metric ?? ''} onChange={(e) => scope(i, 'metric', e.target.value.trim())} />}
                </Field>
                <Field label="Variant">
                  {(p) => (
                    <select {...p} value={c.scope?.variant ?? ''} onChange={(e) => scope(i, 'variant', e.target.value)}>
                      <option value="">any</option>
                      {variants.map((v) => (
                        <option key={v} value={v}>
                          {v}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              </div>
              <div className="criteria-editor-row">
                <Field label="Rule">
                  {(p) => (
                    <select {...p} value={kind} onChange={(e) => update(i, withKind(c, e.target.value as Kind))}>
                      {(Object.keys(KIND_WORDS) as Kind[]).map((k) => (
                        <option key={k} value={k}>
                          {KIND_WORDS[k]}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                {kind === 'at-least' || kind === 'between' ? (
                  <Field label="At least (% of the baseline)">
                    {(p) => <input {...p} type="number" step="any" value={shown(c.atLeastPct)} onChange={(e) => update(i, { ...c, atLeastPct: e.target.valueAsNumber })} />}
                  </Field>
                ) : null}
                {kind === 'at-most' || kind === 'between' ? (
                  <Field label="At most (% of the baseline)">
                    {(p) => <input {...p} type="number" step="any" value={shown(c.atMostPct)} onChange={(e) => update(i, { ...c, atMostPct: e.target.valueAsNumber })} />}
                  </Field>
                ) : null}
                {kind === 'at-least' || kind === 'at-most' || kind === 'between' ? (
                  <Field label="A figure the interval cannot decide">
                    {(p) => (
                      <select
                        {...p}
                        value={c.inconclusive ?? ''}
                        onChange={(e) => {
                          const { inconclusive: _old, ...rest } = c
                          update(i, e.target.value === '' ? rest : { ...rest, inconclusive: e.target.value as 'fail' | 'pass' })
                        }}
                      >
                        <option value="">as for all criteria</option>
                        <option value="fail">fails</option>
                        <option value="pass">passes</option>
                      </select>
                    )}
                  </Field>
                ) : null}
                <label className="check criteria-editor-check">
                  <input
                    type="checkbox"
                    checked={c.scope?.allMetrics === true}
                    onChange={(e) => {
                      const { allMetrics: _old, ...others } = c.scope ?? {}
                      update(i, { ...c, scope: e.target.checked ? { ...others, allMetrics: true } : others })
                    }}
                  />{' '}
                  secondary figures too
                </label>
                <button type="button" className="button button-small criteria-editor-remove" onClick={() => set(criteria.filter((_, j) => j !== i))}>
                  Remove
                </button>
              </div>
              {problem ? (
                <p className="criteria-editor-problem" role="alert">
                  {problem}
                </p>
              ) : (
                <p className="muted">Reported as: {criterionName(checked.data!)}</p>
              )}
            </li>
          )
        })}
      </ol>
      <div className="criteria-editor-row">
        <button type="button" className="button" onClick={() => set([...criteria, NEW_CRITERION])}>
          Add a criterion
        </button>
        {criteria.length > 0 ? (
          <Field label="Figures an interval cannot decide">
            {(p) => (
              <select {...p} value={value?.inconclusive ?? 'fail'} onChange={(e) => onChange({ criteria, inconclusive: e.target.value as 'fail' | 'pass' })}>
                <option value="fail">fail their criterion (default)</option>
                <option value="pass">pass their criterion</option>
              </select>
            )}
          </Field>
        ) : null}
      </div>
    </section>
  )
}

/** The editor's value checked as the plan will check it: the acceptance, or its first problem. */
export function checkAcceptance(value: AcceptanceInput | undefined): { ok: true } | { ok: false; message: string } {
  if (value === undefined) return { ok: true }
  const checked = AcceptanceSchema.safeParse(value)
  return checked.success ? { ok: true } : { ok: false, message: checked.error.issues[0]?.message ?? 'not valid' }
}
