import { useEffect, useId, useRef, useState, type ReactElement } from 'react'
import { Dialog } from '../../components/dialog'
import { PageHeader } from '../../components/empty-state'
import { useAppStore } from '../../store'
import './comparison.css'
import { ReviewStep } from './review-step'
import { SavePresetDialog } from './save-preset-dialog'
import { ScenarioStep } from './scenario-step'
import { TargetsStep } from './targets-step'
import { TestsStep } from './tests-step'
import { useWizardIssues } from './use-issues'
import { fieldId, issuesOfStep, placeOf, STEPS, type StepIndex } from '../../models/wizard-draft'

const STEP_PROBLEMS_ID = 'wiz-step-problems'

/** How long the plan stays unchanged before main reviews it. */
export const REVIEW_DELAY_MS = 300

/** The "New comparison" wizard: targets, scenario, tests, review; Start opens the run. */
export function ComparisonPage(): ReactElement {
  const api = useAppStore((s) => s.api)
  const step = useAppStore((s) => s.wizardStep)
  const reached = useAppStore((s) => s.wizardReached)
  const checked = useAppStore((s) => s.wizardChecked)
  const source = useAppStore((s) => s.wizardSource)
  const focus = useAppStore((s) => s.wizardFocus)
  const targets = useAppStore((s) => s.targets)
  const catalog = useAppStore((s) => s.wizardCatalog)
  const setStep = useAppStore((s) => s.setWizardStep)
  const checkStep = useAppStore((s) => s.checkWizardStep)
  const clearFocus = useAppStore((s) => s.clearWizardFocus)
  const loadTargets = useAppStore((s) => s.loadTargets)
  const loadCatalog = useAppStore((s) => s.loadCatalog)
  const reviewPlan = useAppStore((s) => s.reviewPlan)
  const resetWizard = useAppStore((s) => s.resetWizard)
  const issues = useWizardIssues()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const headingId = useId()
  const shownStep = useRef(step)
  const [dialog, setDialog] = useState<'save' | 'clear' | undefined>()
  const [saved, setSaved] = useState<string | undefined>()

  useEffect(() => {
    if (api && targets === undefined) void loadTargets()
  }, [api, targets, loadTargets])

  useEffect(() => {
    if (api && !catalog.catalog && !catalog.loading && !catalog.error) void loadCatalog()
  }, [api, catalog, loadCatalog])

  // Main reviews the plan once it has stood still a moment, from the tests step on (where its
  // answers matter: tool parameters, the commands, the time).
  useEffect(() => {
    if (!api || step < 2) return
    const timer = setTimeout(() => void reviewPlan(), REVIEW_DELAY_MS)
    return () => clearTimeout(timer)
  }, [api, step, issues.key, reviewPlan])

  // On a step change the focus goes to the step's heading, or to the field a problem points at.
  useEffect(() => {
    const stepChanged = shownStep.current !== step
    shownStep.current = step
    if (focus) {
      clearFocus()
      // A problem about a part of a field ('tests.0.only.1') goes to the field itself ('tests.0.only').
      const parent = focus.replace(/-[^-]+$/, '')
      const element = document.getElementById(focus) ?? (parent.split('-').length >= 4 ? document.getElementById(parent) : null)
      if (element) {
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          if (parent instanceof HTMLDetailsElement) parent.open = true
        }
        element.focus()
        element.scrollIntoView?.({ block: 'center' })
        return
      }
      const fallback = document.getElementById(STEP_PROBLEMS_ID) ?? headingRef.current
      fallback?.focus()
      return
    }
    if (stepChanged) headingRef.current?.focus()
  }, [step, focus, clearFocus])

  const go = (to: StepIndex, field?: string): void => setStep(to, field)

  const next = (): void => {
    if (step >= 3) return
    checkStep(step as StepIndex)
    const [first] = issuesOfStep(issues.all, step as StepIndex)
    if (first) {
      // Stay, and put the focus on the first field that needs a change.
      setStep(step as StepIndex, fieldId(first.path))
      return
    }
    go((step + 1) as StepIndex)
  }

  const back = (): void => {
    if (step > 0) go((step - 1) as StepIndex)
  }

  const current = STEPS[step]

  return (
    <div className="page page-wide comparison-page">
      <div className="page-header-row">
        <PageHeader title="New comparison" lead="Pick a baseline and the guests to compare with it, say how each guest is set up, choose the tests, review and start." />
        <div className="toolbar">
          <button type="button" className="button" onClick={() => setDialog('save')}>
            Save as preset
          </button>
          <button type="button" className="button" onClick={() => setDialog('clear')}>
            Start over
          </button>
        </div>
      </div>

      {source?.name || saved ? (
        <p className="wiz-source" role="status">
          {saved ? `Saved as preset “${saved}”.` : `From preset “${source?.name}”.`}
          {saved ? null : <span className="muted"> Changes here do not change the preset until you save it again.</span>}
        </p>
      ) : null}

      <nav aria-label="Steps of the new comparison">
        <ol className="wiz-stepper">
          {STEPS.map((s, i) => {
            const index = i as StepIndex
            const problems = checked[index] ? issuesOfStep(issues.all, index).length : 0
            return (
              <li key={s.key} className={['wiz-stepper-item', i === step ? 'current' : undefined, i < step ? 'done' : undefined].filter(Boolean).join(' ')}>
                <button type="button" aria-current={i === step ? 'step' : undefined} disabled={i > reached} onClick={() => go(index)}>
                  <span className="wiz-stepper-number" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span className="wiz-stepper-title">
                    <span className="visually-hidden">Step {i + 1}:</span> {s.title}
                  </span>
                  {problems > 0 ? (
                    <span className="wiz-stepper-problems">
                      <span aria-hidden="true">⚠ </span>
                      {problems === 1 ? '1 problem' : `${problems} problems`}
                    </span>
                  ) : null}
                </button>
              </li>
            )
          })}
        </ol>
      </nav>

      <section className="wiz-step" aria-labelledby={headingId}>
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="wiz-step-heading">
          <span className="muted">Step {step + 1} of 4 · </span>
          {current.title}
        </h2>
        {step < 3 && checked[step] ? <StepProblems step={step as StepIndex} onGo={go} /> : null}
        {step === 0 ? <TargetsStep /> : null}
        {step === 1 ? <ScenarioStep /> : null}
        {step === 2 ? <TestsStep /> : null}
        {step === 3 ? <ReviewStep onGo={go} /> : null}
      </section>

      <nav className="wiz-nav" aria-label="Wizard">
        <button type="button" className="button" onClick={back} disabled={step === 0}>
          Back
        </button>
        {step < 3 ? (
          <button type="button" className="button button-primary" onClick={next}>
            Next: {STEPS[step + 1]?.title}
          </button>
        ) : null}
      </nav>

      {dialog === 'save' ? (
        <SavePresetDialog
          onGo={(to, field) => {
            setDialog(undefined)
            go(to, field)
          }}
          onClose={(name) => {
            setDialog(undefined)
            if (name) setSaved(name)
          }}
        />
      ) : null}
      {dialog === 'clear' ? (
        <Dialog
          title="Start over?"
          role="alertdialog"
          size="small"
          onCancel={() => setDialog(undefined)}
          footer={
            <>
              <button type="button" className="button" onClick={() => setDialog(undefined)}>
                Keep this comparison
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  setDialog(undefined)
                  setSaved(undefined)
                  resetWizard()
                }}
              >
                Start over
              </button>
            </>
          }
        >
          <p>The targets, scenarios and tests chosen here are cleared. Saved presets and runs are not touched.</p>
        </Dialog>
      ) : null}
    </div>
  )
}

/**
 * The problems of the step in view, once Next was pressed there (or the review was reached):
 * each with a way to its field, so that none is missed, also one the step shows no field for.
 */
function StepProblems({ step, onGo }: { step: StepIndex; onGo: (step: StepIndex, field?: string) => void }): ReactElement | null {
  const draft = useAppStore((s) => s.wizardDraft)
  const issues = useWizardIssues()
  const problems = issuesOfStep(issues.all, step)
  if (problems.length === 0) return null
  return (
    <section id={STEP_PROBLEMS_ID} tabIndex={-1} className="wiz-step-problems" aria-label="Problems on this step">
      <p>
        <span aria-hidden="true">⚠ </span>
        {problems.length === 1 ? 'One thing needs' : `${problems.length} things need`} a change before the next step:
      </p>
      <ul>
        {problems.map((p) => (
          <li key={`${p.path}:${p.message}`}>
            <button type="button" className="link-button" onClick={() => onGo(step, fieldId(p.path))}>
              {placeOf(p.path, draft)}
            </button>
            : {p.message}
          </li>
        ))}
      </ul>
    </section>
  )
}
