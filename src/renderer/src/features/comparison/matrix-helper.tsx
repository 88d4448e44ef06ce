import { useEffect, useId, useRef, useState, type ReactElement } from 'react'
import { sameTargetName } from '../../../../shared/model/target'
import { useAppStore } from '../../store'
import { MATRIX_CELLS, matrixLabel, matrixProblem, withMatrix, type WizardDraft } from '../../models/wizard-draft'

/** The guests offered for the matrix: every target but the baseline, guests first. */
function candidates(draft: WizardDraft, names: readonly { name: string; role: string }[]): string[] {
  const usable = names.filter((t) => !draft.baseline || !sameTargetName(t.name, draft.baseline))
  return [...usable.filter((t) => t.role === 'guest'), ...usable.filter((t) => t.role !== 'guest')].map((t) => t.name)
}

/** The matrix's first guesses: the ticked guests in order, then the other guests. */
function firstGuess(draft: WizardDraft, offered: readonly string[]): string[] {
  const ticked = draft.variants.map((v) => v.target).filter((n) => offered.some((o) => sameTargetName(o, n)))
  const rest = offered.filter((o) => !ticked.some((t) => sameTargetName(t, o)))
  return MATRIX_CELLS.map((_, i) => [...ticked, ...rest][i] ?? '')
}

/**
 * Study 001's disk matrix in one step: four variants, cache none/writeback x queues 1/4. A plan
 * measures each target once (the same guest cannot be two variants), so each combination is a
 * guest of its own, as in the study's own preset; the helper says so and asks which is which.
 */
export function MatrixHelper(): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const targets = useAppStore((s) => s.targets)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const [open, setOpen] = useState(false)
  const [guests, setGuests] = useState<string[]>([])
  const [done, setDone] = useState<string | undefined>()
  const [tried, setTried] = useState(false)
  const problemId = useId()
  const firstRef = useRef<HTMLSelectElement>(null)
  const openerRef = useRef<HTMLButtonElement>(null)
  const wasOpen = useRef(false)

  // Opening puts the focus on the first combination; closing gives it back to the button.
  useEffect(() => {
    if (open) firstRef.current?.focus()
    else if (wasOpen.current) openerRef.current?.focus()
    wasOpen.current = open
  }, [open])
  const offered = candidates(
    draft,
    (targets ?? []).map((v) => ({ name: v.target.name, role: v.target.role }))
  )
  const problem = matrixProblem(draft, guests)

  const start = (): void => {
    setGuests(firstGuess(draft, offered))
    setTried(false)
    setDone(undefined)
    setOpen(true)
  }

  const apply = (): void => {
    setTried(true)
    if (problem) return
    updateDraft((d) => withMatrix(d, guests))
    setOpen(false)
    setDone(`Four variants created: ${MATRIX_CELLS.map((cell, i) => matrixLabel(guests[i] ?? '', cell)).join('; ')}.`)
  }

  return (
    <section className="card wiz-matrix" aria-label="Study 001 matrix">
      <div className="wiz-matrix-head">
        <div>
          <h3>Study 001’s disk matrix</h3>
          <p className="muted">Disk cache none or writeback × one or four queues: four variants in one step.</p>
        </div>
        {open ? null : (
          <button ref={openerRef} type="button" className="button" onClick={start}>
            Create the matrix…
          </button>
        )}
      </div>
      {done ? (
        <p role="status" className="wiz-matrix-done">
          {done}
        </p>
      ) : null}
      {open ? (
        <div className="wiz-matrix-body">
          <p>
            A comparison measures each target once, so each combination needs <strong>a guest of its own</strong>, set up that way on its host
            (study 001 did the same). Choose which guest stands for each combination; its label and disk settings are filled in, the rest of its
            scenario stays.
          </p>
          {offered.length < MATRIX_CELLS.length ? (
            <p className="banner banner-warning">
              Only {offered.length} target{offered.length === 1 ? ' is' : 's are'} available besides the baseline; the matrix needs four guests. Add
              the missing guests on the Targets step first.
            </p>
          ) : null}
          <div className="wiz-matrix-grid">
            {MATRIX_CELLS.map((cell, i) => (
              <div className="field" key={`${cell.cache}-${cell.queues}`}>
                <label htmlFor={`${problemId}-${i}`}>
                  cache={cell.cache}, {cell.queues === 1 ? '1 queue' : `${cell.queues} queues`}
                </label>
                <select
                  ref={i === 0 ? firstRef : undefined}
                  id={`${problemId}-${i}`}
                  value={guests[i] ?? ''}
                  aria-describedby={tried && problem ? problemId : undefined}
                  onChange={(e) => setGuests((g) => g.map((name, j) => (j === i ? e.target.value : name)))}
                >
                  <option value="">choose a guest</option>
                  {offered.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
                <p className="field-hint">{guests[i] ? `Label: ${matrixLabel(guests[i] ?? '', cell)}` : '\u00a0'}</p>
              </div>
            ))}
          </div>
          {tried && problem ? (
            <p id={problemId} className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="toolbar">
            <button type="button" className="button button-primary" onClick={apply}>
              Create four variants
            </button>
            <button type="button" className="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </section>
  )
}
