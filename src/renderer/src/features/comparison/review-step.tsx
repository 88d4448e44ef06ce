import { useMemo, useState, type ReactElement } from 'react'
import type { PlanReview, ReviewJob } from '../../../../shared/catalog-contract'
import type { Finding } from '../../../../shared/model/run'
import { describeScenario } from '../../../../shared/model/scenario'
import { useAppStore } from '../../store'
import { CriteriaEditor } from '../acceptance/criteria-editor'
import { apiMessage } from '../../lib/api-message'
import { SweepCombinations, SweepTime } from './sweep-expansion'
import { DomainChanges, useDomainConsent } from './sweep-review'
import { useWizardIssues } from './use-issues'
import { WizardField } from './wizard-field'
import { archiveToolsOf, derivedName, draftName, fieldId, formatDuration, placeOf, STEPS, stepOfPath, toolArchivesOfDraft, type StepIndex } from '../../models/wizard-draft'
import { archivesKey } from '../../store/wizard-slice'
import { ToolArchiveBox } from './tool-archive-box'

/** Step 4: the plan's problems, the exact commands per target, the acceptance criteria, the time, preflight and Start. */
export function ReviewStep({ onGo }: { onGo: (step: StepIndex, field?: string) => void }): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const reviewState = useAppStore((s) => s.wizardReview)
  const reviewing = useAppStore((s) => s.wizardReviewing)
  const preflight = useAppStore((s) => s.wizardPreflight)
  const runPreflight = useAppStore((s) => s.runPreflight)
  const acknowledge = useAppStore((s) => s.acknowledgeWarnings)
  const startComparison = useAppStore((s) => s.startComparison)
  const reviewPlan = useAppStore((s) => s.reviewPlan)
  const issues = useWizardIssues()
  const consent = useDomainConsent()
  const [starting, setStarting] = useState(false)
  const [startError, setStartError] = useState<string | undefined>()

  const review = issues.current ? reviewState?.review : undefined
  const reviewError = reviewState?.key === issues.key ? reviewState.error : undefined
  // the tools of the plan that can come from this computer, from main's last review of it
  const archiveTools = useMemo(() => archiveToolsOf(reviewState?.review?.jobs), [reviewState])
  const archives = useMemo(() => archivesKey(toolArchivesOfDraft(draft, archiveTools)), [draft, archiveTools])
  const preflightCurrent = preflight?.key === issues.key && (preflight.archives ?? archivesKey([])) === archives
  const report = preflightCurrent ? preflight?.report : undefined
  const errors = report?.findings.filter((f) => f.severity === 'error') ?? []
  const warnings = report?.findings.filter((f) => f.severity === 'warning') ?? []

  // Why Start cannot go yet, first reason first; undefined when it can.
  const blocker = (): string | undefined => {
    const count = (n: number, one: string, many: string): string => (n === 1 ? one : `${n} ${many}`)
    if (issues.all.length > 0) return `Fix the ${count(issues.all.length, 'problem', 'problems')} listed above first.`
    if (reviewError) return 'The plan could not be checked; check it again.'
    if (!review) return 'Checking the plan…'
    if (!review.ok) return 'VirtBench found that the plan cannot run as it is; see the problems above.'
    if (!preflightCurrent || !report) {
      return preflight?.running && preflightCurrent ? 'Preflight is checking the targets…' : 'Run preflight first: it checks every target before anything runs.'
    }
    if (errors.length > 0) return `Preflight found ${count(errors.length, 'an error', 'errors')}: fix ${errors.length === 1 ? 'it' : 'them'} and run preflight again.`
    if (warnings.length > 0 && !preflight?.acknowledged) return `Read the ${count(warnings.length, 'warning', 'warnings')} and tick the box to start anyway.`
    if (consent.text && !consent.given) return 'Tick the box that lets VirtBench edit and restart the domain: the run changes it.'
    return undefined
  }
  const blocked = blocker()

  const start = async (): Promise<void> => {
    if (blocked || starting) return
    setStarting(true)
    setStartError(undefined)
    try {
      await startComparison(...(consent.given ? [{ changeDomains: true }] : []))
    } catch (error) {
      setStartError(apiMessage(error))
    } finally {
      setStarting(false)
    }
  }

  const canPreflight = issues.all.length === 0 && !preflight?.running

  return (
    <div className="wiz-review">
      <WizardField path="name" label="Name of this comparison" hint="Runs and reports are called this." error={issues.errorAt('name')}>
        {(control) => (
          <input
            {...control}
            type="text"
            value={draftName(draft)}
            placeholder={derivedName(draft)}
            autoComplete="off"
            onChange={(e) => updateDraft((d) => ({ ...d, name: e.target.value, nameEdited: true }))}
          />
        )}
      </WizardField>

      <Summary onGo={onGo} />

      <section aria-labelledby="wiz-issues-heading" className="wiz-issues">
        <h3 id="wiz-issues-heading">Problems</h3>
        {issues.all.length === 0 ? (
          <p className="wiz-ok">
            <span aria-hidden="true">✓ </span>
            {review ? 'No problems: the plan can run.' : reviewing ? 'No problems found here; main is still checking the plan…' : 'No problems found here.'}
          </p>
        ) : (
          <ul className="wiz-issue-list">
            {issues.all.map((issue) => {
              const step = stepOfPath(issue.path)
              return (
                <li key={`${issue.path}:${issue.message}`}>
                  <span className="wiz-issue-sign" aria-hidden="true">
                    ✗
                  </span>
                  <span>
                    <span className="wiz-issue-place">{placeOf(issue.path, draft)}:</span> {issue.message}
                  </span>
                  <button type="button" className="button button-small" onClick={() => onGo(step, fieldId(issue.path))}>
                    Fix in {STEPS[step].title}
                  </button>
                </li>
              )
            })}
          </ul>
        )}
        {reviewError ? (
          <p className="field-error" role="alert">
            The plan could not be checked: {reviewError}{' '}
            <button type="button" className="button button-small" onClick={() => void reviewPlan()}>
              Check again
            </button>
          </p>
        ) : null}
      </section>

      <Commands review={review?.ok ? review : undefined} reviewing={reviewing} />

      <Acceptance review={review?.ok ? review : undefined} />

      <DomainChanges />

      <ToolArchiveBox tools={archiveTools} />

      <section aria-labelledby="wiz-preflight-heading" className="wiz-preflight">
        <h3 id="wiz-preflight-heading">Preflight</h3>
        {archives === archivesKey([]) ? (
          <p className="muted">
            Connects to every target and checks, without changing anything: the tools are installed, the work directory (or the device) is usable,
            there is room, and the machines are idle. Nothing is installed or run for you.
          </p>
        ) : (
          <p className="muted">
            Connects to every target and checks that the tools are there, the work directory (or the device) is usable, there is room, and the machines
            are idle. The tools you bring from this computer (above) are uploaded and built now on the targets that run them, and kept there for the run;
            nothing else is installed or run for you.
          </p>
        )}
        <div className="toolbar">
          <button type="button" className="button" aria-disabled={canPreflight ? undefined : true} onClick={() => canPreflight && void runPreflight()}>
            {preflight?.running ? 'Checking the targets…' : report ? 'Run preflight again' : 'Run preflight'}
          </button>
          {!canPreflight && !preflight?.running ? <span className="muted">Fix the problems above first.</span> : null}
        </div>
        {preflight && !preflightCurrent && !preflight.running ? (
          <p className="banner banner-warning">The plan changed since the last preflight: run it again.</p>
        ) : null}
        {preflightCurrent && preflight?.error ? (
          <p className="field-error" role="alert">
            Preflight could not run: {preflight.error}
          </p>
        ) : null}
        {report ? <Findings findings={report.findings} targets={report.targets} /> : null}
        {report && warnings.length > 0 ? (
          <label className="check wiz-ack">
            <input type="checkbox" checked={preflight?.acknowledged ?? false} onChange={(e) => acknowledge(e.target.checked)} />
            <span>
              I have read the {warnings.length === 1 ? 'warning' : `${warnings.length} warnings`} above and want to start anyway.
            </span>
          </label>
        ) : null}
      </section>

      <div className="wiz-start">
        {/* a sweep is a run per step: its time is the steps' and the guest's restarts, not this plan's one run */}
        {draft.sweep ? (
          <SweepTime enabled={review?.ok === true} className="wiz-total" />
        ) : (
          <p className="wiz-total">
            {review?.ok
              ? `Estimated time, ${draft.schedule.parallelTargets ? 'the targets side by side' : 'all jobs one after the other'}, checks included: ${formatDuration(review.seconds)} (${review.jobs.length} job${review.jobs.length === 1 ? '' : 's'}${pastText(review.timedFromPast, review.jobs.length)})${
                  review.maxSeconds !== undefined && review.maxSeconds > review.seconds
                    ? `; with the repetitions added until each figure is precise enough, up to ${formatDuration(review.maxSeconds)}`
                    : ''
                }.`
              : 'The time is estimated once the plan has no problems.'}
          </p>
        )}
        <button
          type="button"
          className="button button-primary"
          aria-disabled={blocked || starting ? true : undefined}
          aria-describedby="wiz-start-why"
          onClick={() => void start()}
        >
          {starting ? 'Starting…' : 'Start'}
        </button>
        <p id="wiz-start-why" className={startError ? 'field-error' : 'muted'} role={startError ? 'alert' : undefined}>
          {startError ? `The run could not start: ${startError}` : (blocked ?? 'Everything is checked: Start runs the comparison and shows its progress.')}
        </p>
      </div>
    </div>
  )
}

function Summary({ onGo }: { onGo: (step: StepIndex) => void }): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  return (
    <section aria-labelledby="wiz-summary-heading" className="wiz-summary">
      <h3 id="wiz-summary-heading">Summary</h3>
      <dl className="facts">
        <dt>Baseline</dt>
        <dd>
          {draft.baseline ?? <span className="muted">not chosen</span>}{' '}
          <button type="button" className="button button-small" onClick={() => onGo(0)} aria-label="Change the targets">
            Change
          </button>
        </dd>
        <dt>Guests</dt>
        <dd>
          {draft.variants.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <ul className="wiz-summary-list">
              {draft.variants.map((v) => (
                <li key={v.target}>
                  <strong>{v.label.trim() || v.target}</strong>
                  {v.label.trim() ? <span className="muted"> ({v.target})</span> : null}
                  {describeScenario(v.scenario) ? <span className="muted">: {describeScenario(v.scenario)}</span> : null}
                </li>
              ))}
            </ul>
          )}{' '}
          <button type="button" className="button button-small" onClick={() => onGo(1)} aria-label="Change the scenarios">
            Change
          </button>
        </dd>
        {draft.sweep ? (
          <>
            <dt>Combinations</dt>
            <dd>
              <SweepCombinations />
            </dd>
          </>
        ) : null}
        <dt>Tests</dt>
        <dd>
          {draft.tests.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            draft.tests.map((t) => (t.kind === 'pack' ? `${t.pack} (${t.form}${t.only ? `, ${t.only.length} tests` : ''})` : `${t.id} (${t.tool})`)).join(', ')
          )}{' '}
          <button type="button" className="button button-small" onClick={() => onGo(2)} aria-label="Change the tests">
            Change
          </button>
        </dd>
        <dt>Repetitions</dt>
        <dd>
          {draft.repetitions}, {draft.aggregate}
        </dd>
        <dt>Storage tests write to</dt>
        <dd className="mono">
          {draft.storage.kind === 'directory' ? draft.storage.directory : `${draft.storage.device} (raw device: its data is destroyed)`}
        </dd>
      </dl>
    </section>
  )
}

/**
 * The plan's acceptance criteria, kept in the draft and so saved with the preset. The tests offered
 * as scopes are the plan's as main expanded them (a pack's tests by their ids), else its custom tests.
 */
function Acceptance({ review }: { review: PlanReview | undefined }): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const tests = useMemo(() => {
    if (!review) return draft.tests.flatMap((t) => (t.kind === 'custom' ? [{ id: t.id, title: t.title.trim() || t.id }] : []))
    const seen = new Map<string, string>()
    for (const job of review.jobs) if (!seen.has(job.testId)) seen.set(job.testId, job.title)
    return [...seen].map(([id, title]) => ({ id, title }))
  }, [review, draft.tests])
  const variants = useMemo(() => draft.variants.map((v) => v.label.trim() || v.target), [draft.variants])
  return (
    // the editor is the region ("Acceptance criteria"); this only gives it the step's heading
    <div className="wiz-acceptance" id="wiz-acceptance">
      <h3>Acceptance criteria</h3>
      <CriteriaEditor
        value={draft.acceptance}
        onChange={(acceptance) =>
          updateDraft((d) => {
            const { acceptance: _old, ...rest } = d
            return acceptance ? { ...rest, acceptance } : rest
          })
        }
        tests={tests}
        variants={variants}
      />
    </div>
  )
}

/** The exact commands, per target, per test: what the run will type. */
function Commands({ review, reviewing }: { review: PlanReview | undefined; reviewing: boolean }): ReactElement {
  if (!review) {
    return (
      <section aria-labelledby="wiz-commands-heading" className="wiz-commands">
        <h3 id="wiz-commands-heading">Commands per target</h3>
        <p className="muted">{reviewing ? 'Working out the commands…' : 'The commands are listed once the plan has no problems.'}</p>
      </section>
    )
  }
  type TestCommands = { job: ReviewJob; commands: { command: string; measured: boolean }[] }
  const byTarget = new Map<string, Map<string, TestCommands>>()
  for (const job of review.jobs) {
    for (const step of job.steps) {
      const tests = byTarget.get(step.on) ?? new Map<string, TestCommands>()
      byTarget.set(step.on, tests)
      const key = `${job.testId}\u0000${job.target}\u0000${job.peer ?? ''}`
      const entry: TestCommands = tests.get(key) ?? { job, commands: [] }
      tests.set(key, entry)
      if (!entry.commands.some((c) => c.command === step.command)) entry.commands.push({ command: step.command, measured: step.measured })
    }
  }
  const repetitionsOf = (testId: string, target: string, peer: string | undefined): number =>
    review.jobs.filter((j) => j.testId === testId && j.target === target && (j.peer ?? '') === (peer ?? '')).length

  return (
    <section aria-labelledby="wiz-commands-heading" className="wiz-commands">
      <h3 id="wiz-commands-heading">Commands per target</h3>
      <p className="muted">Exactly what runs on each machine, test by test (each command once, however many repetitions).</p>
      {[...byTarget.entries()].map(([target, tests]) => {
        const count = [...tests.values()].reduce((n, e) => n + e.commands.length, 0)
        return (
          <details key={target} className="wiz-target-commands">
            <summary>
              <strong>{target}</strong> <span className="muted">· {tests.size} test{tests.size === 1 ? '' : 's'} · {count} command{count === 1 ? '' : 's'}</span>
            </summary>
            {[...tests.values()].map(({ job, commands }) => {
              const runs = repetitionsOf(job.testId, job.target, job.peer)
              return (
                <div key={`${job.testId}-${job.target}-${job.peer ?? ''}`} className="wiz-job-commands">
                  <p className="wiz-job-title">
                    {job.title}{' '}
                    <span className="muted">
                      · {job.tool}
                      {job.target !== target ? ` · for ${job.target}` : ''}
                      {job.peer ? ` · peer ${job.peer}` : ''} · {runs} run{runs === 1 ? '' : 's'} · {formatDuration(job.seconds)} each
                    </span>
                  </p>
                  {commands.map((c) => (
                    <pre key={c.command} className="wiz-command mono" aria-label={c.measured ? 'Measured command' : 'Command'}>
                      {c.measured ? <span className="wiz-measured">measured</span> : null}
                      {c.command}
                    </pre>
                  ))}
                </div>
              )
            })}
          </details>
        )
      })}
    </section>
  )
}

const SEVERITY_WORDS: Record<Finding['severity'], { sign: string; title: string }> = {
  error: { sign: '✗', title: 'Errors: these block the run' },
  warning: { sign: '⚠', title: 'Warnings: the run may go on once you say so' },
  info: { sign: 'ℹ', title: 'Found' }
}

function Findings({
  findings,
  targets
}: {
  findings: Finding[]
  targets: { name: string; reachable: boolean; os?: string; virtualization?: string }[]
}): ReactElement {
  return (
    <div className="wiz-findings">
      <ul className="wiz-preflight-targets" aria-label="Targets checked">
        {targets.map((t) => (
          <li key={t.name}>
            <span className={t.reachable ? 'chip chip-ok' : 'chip chip-warn'}>{t.reachable ? '✓ reached' : '✗ not reached'}</span> <strong>{t.name}</strong>
            {t.os ? <span className="muted"> · {t.os}</span> : null}
            {t.virtualization ? <span className="muted"> · {t.virtualization === 'none' ? 'bare metal' : t.virtualization}</span> : null}
          </li>
        ))}
      </ul>
      {findings.length === 0 ? (
        <p className="wiz-ok">
          <span aria-hidden="true">✓ </span>Preflight found nothing to report.
        </p>
      ) : null}
      {(['error', 'warning', 'info'] as const).map((severity) => {
        const list = findings.filter((f) => f.severity === severity)
        if (list.length === 0) return null
        const words = SEVERITY_WORDS[severity]
        return (
          <section key={severity} className={`wiz-finding-group wiz-finding-${severity}`} aria-label={`${words.title} (${list.length})`}>
            <h4>
              <span aria-hidden="true">{words.sign} </span>
              {words.title} ({list.length})
            </h4>
            <ul>
              {list.map((f, i) => (
                <li key={`${f.code}-${f.target ?? ''}-${i}`} data-code={f.code}>
                  <p>
                    {f.target ? <strong>{f.target}: </strong> : null}
                    {f.message}
                  </p>
                  {f.fix ? <p className="muted">{f.fix}</p> : null}
                  {f.command ? <CopyCommand command={f.command} target={f.target} /> : null}
                </li>
              ))}
            </ul>
          </section>
        )
      })}
    </div>
  )
}

/** An install command to copy and run yourself: VirtBench never runs it. */
function CopyCommand({ command, target }: { command: string; target: string | undefined }): ReactElement {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>()
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(command)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
  }
  return (
    <div className="wiz-copy">
      <pre className="wiz-command mono">{command}</pre>
      <button type="button" className="button button-small" onClick={() => void copy()} aria-label={`Copy the command${target ? ` for ${target}` : ''}`}>
        Copy
      </button>
      <span className="muted" role="status">
        {copied === 'yes' ? 'Copied: run it yourself on the target.' : copied === 'failed' ? 'Could not copy; select the command and copy it.' : 'Not run by VirtBench: run it yourself if you agree.'}
      </span>
    </div>
  )
}

/** Which jobs' times come from earlier runs of them on the same targets, not from their tools' guesses. */
function pastText(timed: number | undefined, jobs: number): string {
  if (!timed) return ''
  return timed >= jobs ? ', each timed by its earlier runs on the same target' : `, ${timed} of them timed by their earlier runs on the same targets`
}
