import { useMemo, type ReactElement } from 'react'
import type { RunDocument, RunDomain } from '../../../shared/model/run'
import type { ReportInput, SweepReport } from '../../../shared/report'
import { describeRedaction } from '../../../shared/export/redact'
import { simultaneousTables } from '../../../shared/network-tables'
import { sweptFactors } from '../../../shared/sweep/expand'
import { sweepCombos } from '../../../shared/sweep/sweep-combos'
import { NO_RESULTS, sweepGrid, sweepMatrixGrids } from '../../../shared/sweep/sweep-table'
import { ChartPrintContext } from '../features/charts'
import { matrixGrids } from '../features/charts/network-matrix'
import { comparisonOf } from '../features/results/comparison-of'
import { durationText, jobCounts, jobCountsText, RUN_STATUS_TEXT } from '../features/results/run-text'
import { categoryParts } from './report-data'
import {
  CategorySection,
  EnvironmentSection,
  FlagsSection,
  MethodSection,
  NetworkSection,
  RawOutputSection,
  REPORT_CHART_WIDTH,
  ReportMadeRows,
  ReportPage,
  reportDate,
  Section,
  SectionIdPrefix,
  SummarySection,
  TargetLine
} from './report-page'
import { FIGURE_MARKS, SweepMatrixTable, SweepTable } from './report-tables'

const FULL_WIDTH = { width: REPORT_CHART_WIDTH }

/** What report.html draws: a sweep's report when the input has its steps, else the run's. */
export function ReportDocument({ input }: { input: ReportInput }): ReactElement {
  return input.sweep ? <SweepReportPage input={input} sweep={input.sweep} /> : <ReportPage input={input} />
}

/** A step that ran, with its run and where its sections' ids start. */
interface RanStep {
  index: number
  label: string
  dir: string
  status: SweepReport['steps'][number]['status']
  seconds?: number
  run: RunDocument
  prefix: string
}

/**
 * The PDF report of a sweep (docs/export.md#a-sweep): a first page with what was swept, then the
 * sweep's own table (a row per combination, a column per primary figure, each cell the guest's
 * value, relative % and the step's verdict, as the app's results and `virtbench run` show it:
 * sweepCombos and sweepGrid / sweepMatrixGrids of src/shared/sweep), for two factors a matrix per
 * figure, and how to read them, said once. Then each step's usual parts, kept short (its summary
 * without the reading paragraph, flags, one part per category), and once for the whole sweep the
 * environment (the last step's), the method and every step's raw output.
 */
export function SweepReportPage({ input, sweep }: { input: ReportInput; sweep: SweepReport }): ReactElement {
  const { run } = input
  const plan = run.plan.sweep!
  const combos = useMemo(() => sweepCombos(plan, sweep.steps), [plan, sweep.steps])
  const table = useMemo(() => sweepGrid({ combos }), [combos])
  const matrices = useMemo(() => sweepMatrixGrids({ combos }, sweptFactors(plan)), [combos, plan])
  const steps = useMemo(
    () =>
      sweep.steps.flatMap((s, i): RanStep[] =>
        s.run ? [{ index: i + 1, label: s.label, dir: s.dir, status: s.status, ...(s.seconds !== undefined ? { seconds: s.seconds } : {}), run: s.run, prefix: `step-${i + 1}-` }] : []
      ),
    [sweep.steps]
  )
  const comparison = comparisonOf(run)
  const baseline = run.targets.find((t) => t.role === 'baseline')?.label ?? run.plan.baseline.target
  return (
    <ChartPrintContext.Provider value={FULL_WIDTH}>
      <article className="report" data-paper={input.options.paper} aria-label={`Sweep report: ${run.name}`}>
        <SweepTitlePage input={input} sweep={sweep} steps={steps} />
        <Section
          id="sweep"
          title={`Sweep of ${plan.target} (${plan.domain}), relative to ${baseline}`}
          flow
          lead={`Each cell is the guest's value under that combination and its relative % against ${baseline} measured in the same step: 100 % is as good as the baseline, more is better (latencies are inverted so this holds for them too); a count is compared as a difference (Δ). Beside it, the step's verdict from the figure's 95 % interval: slower or faster when the whole interval lies below or above 100 %, the same when it lies within 100 % ± ${comparison.marginPct} %, and "can't tell" when the step's repetitions cannot tell it from noise (one repetition never can): a % is a finding only beside slower or faster. Beside a figure in the steps' tables: ${FIGURE_MARKS}.`}
        >
          {table.columns.length === 0 ? (
            <p>{NO_RESULTS}</p>
          ) : (
            <div className="report-block">
              <SweepTable table={table} caption={`Primary figures of ${plan.target} under each combination`} />
            </div>
          )}
          {matrices.length > 0 ? (
            <div className="report-block" data-matrices={matrices.length}>
              {matrices.map((m) => (
                <SweepMatrixTable key={m.title} matrix={m} />
              ))}
            </div>
          ) : null}
        </Section>
        {steps.map((step) => (
          <StepSections key={step.dir} step={step} total={sweep.total} />
        ))}
        <EnvironmentSection run={run} />
        <MethodSection run={run} comparison={comparison} />
        <RawOutputSection run={run} steps={steps} />
      </article>
    </ChartPrintContext.Provider>
  )
}

function SweepTitlePage({ input, sweep, steps }: { input: ReportInput; sweep: SweepReport; steps: RanStep[] }): ReactElement {
  const { run } = input
  const plan = run.plan.sweep!
  const baseline = run.targets.find((t) => t.role === 'baseline')
  const took = run.endedAt ? durationText(run.createdAt, run.endedAt) : undefined
  const completed = sweep.steps.filter((s) => s.status === 'completed').length
  const jobs = jobCountsText(jobCounts({ jobs: steps.flatMap((s) => s.run.jobs) }))
  const contents: [string, string][] = [
    ['sweep', 'Sweep table'],
    ...steps.map((s): [string, string] => [`step-${s.index}`, `Step ${s.index}`]),
    ['environment', 'Environment'],
    ['method', 'Method'],
    ['raw-output', 'Raw output']
  ]
  return (
    <section className="report-title-page" data-section="title">
      <p className="report-kicker">VirtBench sweep report</p>
      <h1>{run.name}</h1>
      <dl className="report-facts">
        <dt>Measured</dt>
        <dd>
          {reportDate(run.createdAt)}
          {took ? ` · took ${took}` : ''}
        </dd>
        <dt>Status</dt>
        <dd>
          {RUN_STATUS_TEXT[run.status]} · {completed} of {sweep.total} steps completed · {jobs}
        </dd>
        <dt>Baseline</dt>
        <dd>{baseline ? <TargetLine label={baseline.label} scenario={baseline.scenario} /> : run.plan.baseline.target}</dd>
        <dt>Swept</dt>
        <dd>
          <strong>{plan.target}</strong>
          <span className="report-muted">
            {' '}
            · libvirt domain {plan.domain} · {plan.order === 'grouped' ? 'grouped (every repetition of a combination in one step)' : 'interleaved (one repetition of every combination per round)'}
          </span>
        </dd>
        <dt>Factors</dt>
        <dd>
          {sweptFactors(plan)
            .map((f) => `${f}: ${(plan.factors[f] as readonly (string | number)[]).join(', ')}`)
            .join(' · ')}
        </dd>
        <dt>Tests</dt>
        <dd>
          {run.tests.length} ({run.tests.map((t) => t.title).join('; ')}), {run.plan.repetitions} repetition{run.plan.repetitions === 1 ? '' : 's'} per step
        </dd>
        <ReportMadeRows input={input} contents={contents} />
      </dl>
      {input.redacted ? (
        <p className="report-note" data-redacted="true">
          {describeRedaction(input.redacted)} in this report: they are written as &lt;host-1&gt;, &lt;address-1&gt;… The sweep kept by
          VirtBench still has them.
        </p>
      ) : null}
    </section>
  )
}

/** What a step did to its domain, in words: the changes, or that it had the combination already. */
function appliedText(domain: RunDomain): string {
  const apply = domain.apply
  if (!apply) return 'not changed by this step'
  if (apply.status === 'unchanged') return 'had this combination already (no restart)'
  const changes = apply.changes.length > 0 ? apply.changes.join('; ') : 'changed'
  return apply.status === 'applied' ? changes : `${changes} (${apply.status})`
}

/** One step: how it ended and what was changed on the domain, then its summary (brief), flags and categories, under ids of its own. */
function StepSections({ step, total }: { step: RanStep; total: number }): ReactElement {
  const { run } = step
  const comparison = comparisonOf(run)
  const parts = useMemo(() => categoryParts(run, comparison), [run, comparison])
  const network = (matrixGrids(run).length > 0 || simultaneousTables(run).length > 0) && !parts.some((p) => p.category === 'network')
  const ended = `${RUN_STATUS_TEXT[step.status]}${step.seconds !== undefined ? ` in ${step.seconds} s` : ''} · ${jobCountsText(jobCounts(run))}`
  return (
    <>
      <Section id={`step-${step.index}`} title={`Step ${step.index} of ${total}: ${step.label}`} flow lead={`${ended} · run folder ${step.dir}`}>
        <ul className="report-plain-list" data-step={step.dir}>
          {(run.domains ?? []).map((d) => (
            <li key={d.domain}>
              Domain {d.domain} on {d.host}: {appliedText(d)}
              {d.apply?.error ? <span className="report-muted"> · {d.apply.error}</span> : null}
            </li>
          ))}
          {run.error ? <li className="report-warning">{run.error}</li> : null}
        </ul>
      </Section>
      <SectionIdPrefix.Provider value={step.prefix}>
        <SummarySection run={run} comparison={comparison} brief />
        <FlagsSection comparison={comparison} />
        {parts.map((part) => (
          <CategorySection key={part.category} run={run} part={part} />
        ))}
        {network ? <NetworkSection run={run} /> : null}
      </SectionIdPrefix.Provider>
    </>
  )
}
