import { createContext, useContext, useMemo, type ReactElement, type ReactNode } from 'react'
import { leadingRows, verdictCounts, type VerdictCounts } from '../../../shared/compare/summary'
import type { Comparison } from '../../../shared/model/comparison'
import type { RunDocument, RunTest } from '../../../shared/model/run'
import type { TargetEnvironment } from '../../../shared/model/environment'
import { describeScenario } from '../../../shared/model/scenario'
import { formatValue } from '../../../shared/format'
import { simultaneousTables } from '../../../shared/network-tables'
import { describeRedaction } from '../../../shared/export/redact'
import { judgeAcceptance, type CriterionStatus } from '../../../shared/criteria'
import { PAPER_MM, type ReportInput } from '../../../shared/report'
import { ChartPrintContext, MonitorSeriesChart, NetworkMatrixHeatmap, RelativeChart } from '../features/charts'
import { matrixGrids } from '../features/charts/network-matrix'
import { aggregateWords } from '../features/charts/rows'
import { comparisonOf } from '../features/results/comparison-of'
import { environmentDifferences, environmentFields, environmentOf, scenarioMismatchesOf } from '../features/results/environment-fields'
import { FLAG_TITLE, flagExplanation, flagFinding } from '../features/results/flag-text'
import { durationText, jobCounts, jobCountsText, RUN_STATUS_TEXT } from '../features/results/run-text'
import {
  CATEGORY_TITLE,
  categoryParts,
  commandList,
  diskActivityRows,
  drawnRelativeViews,
  flagEntries,
  flagGroups,
  headlineByCategory,
  matrixPairs,
  monitorJobIds,
  monitorWorthDrawing,
  paramsText,
  rawOutputIndex,
  REPORT_CATEGORY_TITLE,
  testNotes,
  verdictTable,
  verdictWordsText,
  type CategoryPart,
  type DiskActivityRow
} from './report-data'
import { FIGURE_MARKS, FigureTable, HeadlineMatrix, HeadlineTable, type TestHead } from './report-tables'
import { IozoneStudyMaps, IozoneSummaries } from '../features/studies/iozone-heatmap'
import { BonnieStudyTables } from '../features/studies/bonnie-study'
import { Study001Tables } from '../features/studies/study001-tables'
import { DiskActivityStudy } from '../features/studies/disk-activity-study'
import { JobFiles } from '../features/studies/job-files'
import { NetworkStudyTables } from '../features/studies/network-study'
import { StudyMultiples } from '../features/studies/study-multiples'
import { Study002Bars } from '../features/studies/study002-bars'
import { runJobFiles } from '../../../shared/fio-job-file/of-run'
import { hasSurfaces, isSurfaceRow } from '../../../shared/studies/surface-maps'

/** The plot width of every chart in the report, in CSS pixels: fits A4 and Letter inside the margins. */
export const REPORT_CHART_WIDTH = 640

const FULL_WIDTH = { width: REPORT_CHART_WIDTH }

const ROLE_TEXT = { baseline: 'baseline (100 %)', variant: 'variant', peer: 'network peer' } as const

/** "21 Nov 2026, 09:14:03 UTC": dates in the report say their time zone. */
export function reportDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(date) + ' UTC'
}

/**
 * The PDF comparison report of a run (docs/export.md): a first page that answers the question
 * (verdicts per category, the primary figures with their values), the flags once, one page per
 * category (every figure, grouped by test, and the charts worth drawing), the environment, the
 * method with the exact commands, and where the raw output is. Charts are the app's own
 * components in print mode (fixed size, no controls); the page is printed by the app
 * (printToPDF) and by `virtbench report`.
 */
export function ReportPage({ input }: { input: ReportInput }): ReactElement {
  const { run } = input
  const comparison = useMemo(() => comparisonOf(run), [run])
  const parts = useMemo(() => categoryParts(run, comparison), [run, comparison])
  const networkExtras = matrixGrids(run).length > 0 || simultaneousTables(run).length > 0
  const networkPart = parts.some((p) => p.category === 'network')
  return (
    <ChartPrintContext.Provider value={FULL_WIDTH}>
      <article className="report" data-paper={input.options.paper} aria-label={`Comparison report: ${run.name}`}>
        <TitlePage input={input} comparison={comparison} parts={parts} network={networkExtras && !networkPart} />
        <SummarySection run={run} comparison={comparison} />
        <FlagsSection comparison={comparison} />
        {parts.map((part) => (
          <CategorySection key={part.category} run={run} part={part} />
        ))}
        {networkExtras && !networkPart ? <NetworkSection run={run} /> : null}
        <EnvironmentSection run={run} />
        <MethodSection run={run} comparison={comparison} />
        <RawOutputSection run={run} />
      </article>
    </ChartPrintContext.Provider>
  )
}

/** The title page's last rows, a run's and a sweep's alike: who prepared it, how it was made, its contents. */
export function ReportMadeRows({ input, contents }: { input: ReportInput; contents: [string, string][] }): ReactElement {
  const { run, options } = input
  return (
    <>
      {options.author ? (
        <>
          <dt>Prepared by</dt>
          <dd>{options.author}</dd>
        </>
      ) : null}
      <dt>Report</dt>
      <dd>
        Made {reportDate(input.generatedAt)} by VirtBench {input.appVersion}
        {run.app.version !== input.appVersion ? ` (measured with VirtBench ${run.app.version})` : ''} · {PAPER_MM[options.paper].label} ·{' '}
        <span className="mono">{run.id}</span>
      </dd>
      <dt>Contents</dt>
      <dd>
        <nav aria-label="Contents" className="report-contents">
          {contents.map(([id, title], i) => (
            <span key={id}>
              {i > 0 ? ' · ' : ''}
              <a href={`#${id}`}>{title}</a>
            </span>
          ))}
        </nav>
      </dd>
    </>
  )
}

/**
 * Set around one step of a sweep's report (sweep-report.tsx): its sections' ids start with it, so
 * each step's are its own, and its category parts are kept short (no host-monitor charts: their
 * figures stay in the disk activity table).
 */
export const SectionIdPrefix = createContext('')

export function Section({
  id,
  title,
  children,
  lead,
  flow,
  head
}: {
  id: string
  title: string
  lead?: ReactNode
  children: ReactNode
  /** Follows the previous section on its page instead of starting a new one. */
  flow?: boolean
  /** Kept on one page with the title (a chart), so a title never ends a page alone. */
  head?: ReactNode
}): ReactElement {
  const own = `${useContext(SectionIdPrefix)}${id}`
  return (
    <section className={flow ? 'report-section report-section-flow' : 'report-section'} id={own} data-section={own} aria-labelledby={`${own}-title`}>
      <div className="report-section-head">
        <h2 id={`${own}-title`}>{title}</h2>
        {lead ? <p className="report-lead">{lead}</p> : null}
        {head}
      </div>
      {children}
    </section>
  )
}

function TitlePage({ input, comparison, parts, network }: { input: ReportInput; comparison: Comparison; parts: CategoryPart[]; network: boolean }): ReactElement {
  const { run } = input
  const baseline = run.targets.find((t) => t.role === 'baseline')
  const variants = run.targets.filter((t) => t.role === 'variant')
  const peers = run.targets.filter((t) => t.role === 'peer')
  const took = run.endedAt ? durationText(run.createdAt, run.endedAt) : undefined
  const contents: [string, string][] = [
    ['summary', 'Summary'],
    ['flags', 'Flags'],
    ...parts.map((p): [string, string] => [`category-${p.category}`, REPORT_CATEGORY_TITLE[p.category]]),
    ...(network ? [['network', 'Network between machines'] as [string, string]] : []),
    ['environment', 'Environment'],
    ['method', 'Method'],
    ['raw-output', 'Raw output']
  ]
  return (
    <section className="report-title-page" data-section="title">
      <p className="report-kicker">VirtBench comparison report</p>
      <h1>{run.name}</h1>
      {run.source ? (
        <p className="report-banner">
          <strong>Published figures, not measured here.</strong> {run.source.note} Source: {run.source.title} ({run.source.citation}).
        </p>
      ) : null}
      <dl className="report-facts">
        <dt>Measured</dt>
        <dd>
          {reportDate(run.createdAt)}
          {took ? ` · took ${took}` : ''}
        </dd>
        <dt>Status</dt>
        <dd>
          {RUN_STATUS_TEXT[run.status]} · {jobCountsText(jobCounts(run))}
          {run.error ? ` · ${run.error}` : ''}
        </dd>
        <dt>Baseline</dt>
        <dd>{baseline ? <TargetLine label={baseline.label} scenario={baseline.scenario} /> : run.plan.baseline.target}</dd>
        <dt>{variants.length === 1 ? 'Variant' : `Variants (${variants.length})`}</dt>
        <dd>
          <ul className="report-plain-list">
            {variants.map((v) => (
              <li key={v.name}>
                <TargetLine label={v.label} scenario={v.scenario} />
              </li>
            ))}
          </ul>
        </dd>
        {peers.length > 0 ? (
          <>
            <dt>Network peer</dt>
            <dd>{peers.map((p) => p.label).join(', ')}</dd>
          </>
        ) : null}
        <dt>Tests</dt>
        <dd>
          {run.tests.length} ({run.tests.map((t) => t.title).join('; ')})
        </dd>
        <ReportMadeRows input={input} contents={contents} />
      </dl>
      <AcceptanceSummary run={run} comparison={comparison} />
      {input.redacted ? (
        <p className="report-note" data-redacted="true">
          {describeRedaction(input.redacted)} in this report: they are written as &lt;host-1&gt;, &lt;address-1&gt;… The run kept by
          VirtBench still has them.
        </p>
      ) : null}
    </section>
  )
}

const CRITERION_STATUS_TEXT: Record<CriterionStatus, string> = { passed: 'Passed', failed: 'Failed', error: 'Not judged' }

/** Failing figures printed under a failed criterion on the first page; the rest are counted (the summary's tables have them all). */
export const REPORT_FAILING_FIGURES = 3

/**
 * The acceptance verdict on the first page, when the plan has criteria: passed or failed, then a
 * line per criterion with its status and summary, and under a failed one its first failing figures.
 * Judged by judgeAcceptance() from the comparison the report prints, as the app and the CLI do.
 */
function AcceptanceSummary({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement | null {
  const acceptance = run.plan.acceptance
  const result = useMemo(() => (acceptance ? judgeAcceptance(acceptance, comparison) : undefined), [acceptance, comparison])
  if (!result) return null
  const verdict = `Acceptance ${result.passed ? 'passed' : 'failed'}${run.status === 'running' ? ' so far' : ''}`
  return (
    <div className={`report-acceptance report-acceptance-${result.passed ? 'passed' : 'failed'}`} data-acceptance={result.passed ? 'passed' : 'failed'}>
      <h2 className="report-acceptance-head">
        <span aria-hidden="true">{result.passed ? '✓ ' : '✗ '}</span>
        {verdict}
      </h2>
      <p className="report-acceptance-summary">{result.summary}</p>
      <ol className="report-acceptance-criteria">
        {result.results.map((r) => {
          const failing = r.cells.filter((c) => c.counts === 'fail')
          return (
            <li key={r.index} data-status={r.status}>
              <strong className={`report-acceptance-status report-acceptance-status-${r.status}`}>{CRITERION_STATUS_TEXT[r.status]}</strong> {r.name}
              <span className="report-muted"> · {r.summary}</span>
              {failing.length > 0 ? (
                <ul className="report-acceptance-figures">
                  {failing.slice(0, REPORT_FAILING_FIGURES).map((c) => (
                    <li key={`${c.variant}|${c.testId}|${c.metric}|${JSON.stringify(c.labels)}`}>{c.text}</li>
                  ))}
                  {failing.length > REPORT_FAILING_FIGURES ? (
                    <li className="report-muted">
                      and {failing.length - REPORT_FAILING_FIGURES} more failing figure{failing.length - REPORT_FAILING_FIGURES === 1 ? '' : 's'}, in the tables below
                    </li>
                  ) : null}
                </ul>
              ) : null}
            </li>
          )
        })}
      </ol>
    </div>
  )
}

export function TargetLine({ label, scenario }: { label: string; scenario?: Parameters<typeof describeScenario>[0] }): ReactElement {
  const text = scenario ? describeScenario(scenario) : ''
  return (
    <>
      <strong>{label}</strong>
      {text ? <span className="report-muted"> · {text}</span> : null}
    </>
  )
}

/** Per variant and category, how many primary figures are slower, faster, the same or can't tell; the baseline's own warnings first. */
function VerdictSummary({ comparison }: { comparison: Comparison }): ReactElement {
  const table = verdictTable(comparison)
  const counts = (c: VerdictCounts | undefined): ReactNode => (c ? verdictWordsText(c) || 'nothing compared' : <span className="report-muted">—</span>)
  return (
    <div className="report-block report-verdicts">
      {comparison.baselineFlags.map((flag, i) => (
        <p key={i} className="report-warning">
          <strong>{FLAG_TITLE[flag.kind]}.</strong> {flag.message}
        </p>
      ))}
      {comparison.variants.map((variant) =>
        (comparison.variantFlags[variant] ?? [])
          .filter((f) => f.kind === 'same-machine')
          .map((f, j) => (
            <p key={`${variant}-${j}`} className="report-warning">
              <strong>{FLAG_TITLE[f.kind]}:</strong> {flagFinding(f)}
            </p>
          ))
      )}
      {table.categories.length > 0 ? (
        <table className="report-table report-verdict-table">
          <caption>Verdicts on the primary figures, against {comparison.baseline}</caption>
          <thead>
            <tr>
              <th scope="col">Variant</th>
              {table.categories.map((c) => (
                <th key={c} scope="col">
                  {CATEGORY_TITLE[c]}
                </th>
              ))}
              <th scope="col">All primary figures</th>
            </tr>
          </thead>
          <tbody>
            {table.variants.map((v) => (
              <tr key={v.variant}>
                <th scope="row">{v.variant}</th>
                {v.byCategory.map((c, i) => (
                  <td key={i}>{counts(c)}</td>
                ))}
                <td className="strong">{counts(v.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  )
}

/** `brief`: without the paragraph on how to read the figures (a sweep's report says it once, before its steps). */
export function SummarySection({ run, comparison, brief }: { run: RunDocument; comparison: Comparison; brief?: boolean }): ReactElement {
  const categories = headlineByCategory(comparison)
  return (
    <Section
      id="summary"
      title="Summary"
      flow
      lead={brief ? undefined : `Relative % against ${comparison.baseline}: 100 % is as good as the baseline, more is better (latencies are inverted so this holds for them too); a count (lost packets) is compared as a difference (Δ). Each verdict comes from the figure's 95 % interval: slower or faster when the whole interval lies below or above 100 %, the same when it lies within 100 % ± ${comparison.marginPct} %, and "can't tell" when it is too wide (or a side has one value). Only a finding (slower, faster) has an arrow and an overhead, here and in the charts, whose whiskers are the interval. Beside a figure: ${FIGURE_MARKS}.`}
    >
      <VerdictSummary comparison={comparison} />
      {categories.length === 0 && hasSurfaces(comparison) ? (
        <div className="report-block" data-surfaces="true">
          <p>Every figure of this run is a file size x record size grid, compared cell by cell: each sub-test in a line here, its heat map on the Storage page.</p>
          <IozoneSummaries comparison={comparison} />
        </div>
      ) : categories.length === 0 ? (
        <p>No primary figure has both a baseline and a variant value: nothing to summarise.</p>
      ) : null}
      {categories.map(({ category, rows }) => (
        <div key={category} className="report-block" data-category={category}>
          <h3>{CATEGORY_TITLE[category]}</h3>
          {comparison.variants.length > 3 ? (
            <HeadlineMatrix comparison={comparison} rows={rows} caption={`${CATEGORY_TITLE[category]}: relative %, value and 95 % interval against ${comparison.baseline}`} />
          ) : (
            <HeadlineTable comparison={comparison} rows={rows} caption={`${CATEGORY_TITLE[category]}: primary figures, with ${comparison.baseline}'s and each variant's value`} />
          )}
        </div>
      ))}
      {run.preflight.some((f) => f.severity !== 'info') ? (
        <div className="report-block">
          <h3>Checks before the run</h3>
          <ul className="report-flags">
            {run.preflight
              .filter((f) => f.severity !== 'info')
              .map((f, i) => (
                <li key={i}>
                  <strong>{f.severity === 'error' ? 'Error' : 'Warning'}</strong>
                  {f.target ? ` · ${f.target}` : ''}: {f.message}
                  {f.fix ? <span className="report-muted"> {f.fix}</span> : null}
                </li>
              ))}
          </ul>
        </div>
      ) : null}
    </Section>
  )
}

/** Every flag once, grouped by kind: what the kind means once, then where it was raised. */
export function FlagsSection({ comparison }: { comparison: Comparison }): ReactElement {
  const flags = flagEntries(comparison)
  return (
    <Section id="flags" title="Flags" flow>
      {flags.length === 0 ? (
        <p>No flags: no figure is noisy, faster than the baseline, capped or missing, and every declared setup matches what the hosts report.</p>
      ) : (
        flagGroups(flags).map((group) => {
          const first = group.detailed[0] ?? group.others[0]!
          const count = group.detailed.length + group.others.length
          return (
            <div key={group.kind} className="report-flag-group" data-flag={group.kind}>
              <h4>
                {FLAG_TITLE[group.kind]} <span className="report-muted">· {count} {count === 1 ? 'time' : 'times'}</span>
              </h4>
              <p className="report-explain">{flagExplanation(first.flag)}</p>
              {group.detailed.length > 0 ? (
                <ul className="report-flags">
                  {group.detailed.map((entry, i) => (
                    <li key={i}>
                      <strong>{entry.variant}</strong>
                      {entry.figure ? <span className="report-muted"> · {entry.figure}</span> : null}: {flagFinding(entry.flag)}
                    </li>
                  ))}
                </ul>
              ) : null}
              {group.others.length > 0 ? (
                <p className="report-flag-others">
                  {group.detailed.length > 0 ? 'Also on' : 'On'} {group.others.length} more figure{group.others.length === 1 ? '' : 's'}:{' '}
                  {group.others.map((e) => `${e.variant} · ${e.figure ?? ''}`).join('; ')}. The category pages mark them.
                </p>
              ) : null}
            </div>
          )
        })
      )}
    </Section>
  )
}

/** A test's line in its category's table: tool, parameters, repetitions, jobs. */
function testHead(run: RunDocument, test: RunTest): TestHead {
  const jobs = run.jobs.filter((j) => j.testId === test.id && j.kind !== 'warmup')
  const params = paramsText(test).join(' ') || 'default parameters'
  return {
    id: test.id,
    title: test.title,
    text: `${test.tool} ${params} · ${test.repetitions} per target, compared by their ${test.aggregate === 'best' ? 'best value' : test.aggregate} · ${jobCountsText(jobCounts({ jobs }))}`
  }
}

function sumCounts(counts: readonly VerdictCounts[]): VerdictCounts {
  const total: VerdictCounts = { slower: 0, faster: 0, same: 0, inconclusive: 0 }
  for (const c of counts) for (const verdict of Object.keys(total) as (keyof VerdictCounts)[]) total[verdict] += c[verdict]
  return total
}

/** With up to this many bars, a category's relative charts come first, the first with its title; beyond, after its figures. */
const CHART_FIRST_BARS = 8

/** At most this many host-monitor charts on a category's page (those with a series or both views to draw). */
const MONITOR_CHARTS_PER_CATEGORY = 2

/**
 * One category: the relative chart of its primary figures (when it has two or more to draw), its
 * heat maps and host monitors, then every figure of its tests in one table, grouped by test, and
 * the jobs' warnings and failures.
 */
export function CategorySection({ run, part }: { run: RunDocument; part: CategoryPart }): ReactElement {
  const own = part.comparison
  const views = drawnRelativeViews(own)
  // a chart of many bars is most of a page: after the figures, so the title never waits for it on an emptied page
  const tall = views.some((v) => v.bars > CHART_FIRST_BARS)
  const relative = ({ key }: { key: string }): ReactElement => (
    <div key={key} className="report-relative">
      <RelativeChart comparison={own} view={key} />
    </div>
  )
  const testIds = new Set(part.tests.map((t) => t.id))
  const monitors = part.category === 'storage' || part.category === 'other' ? monitorJobIds(run, testIds, (job) => monitorWorthDrawing(run, job)) : []
  const shownMonitors = useContext(SectionIdPrefix) === '' ? monitors.slice(0, MONITOR_CHARTS_PER_CATEGORY) : []
  const disk = part.category === 'storage' || part.category === 'other' ? diskActivityRows(run, testIds) : []
  const leading = leadingRows(own)
  const notes = part.tests.map((t) => ({ test: t, notes: testNotes(run, t.id) })).filter((n) => n.notes.length > 0)
  const title = REPORT_CATEGORY_TITLE[part.category]
  // with a few variants, each one's verdicts; with more, all of them together (the first page has them per variant)
  const counts = own.variants.map((_, i) => verdictCounts(leading, i))
  const lead =
    own.variants.length <= 3
      ? own.variants.map((variant, i) => `${variant}: ${verdictWordsText(counts[i]!) || 'nothing compared'}`).join('; ')
      : `${own.variants.length} variants together: ${verdictWordsText(sumCounts(counts)) || 'nothing compared'}`
  return (
    <Section
      id={`category-${part.category}`}
      title={title}
      lead={leading.length > 0 ? `Primary figures: ${lead}.` : undefined}
      flow
      head={!tall && views[0] ? relative(views[0]) : undefined}
    >
      {(!tall && views.length > 1) || shownMonitors.length > 0 ? (
        <div className="report-charts">
          {tall ? null : views.slice(1).map(relative)}
          {shownMonitors.map((id) => (
            <MonitorSeriesChart key={id} run={run} job={id} />
          ))}
        </div>
      ) : null}
      {monitors.length > shownMonitors.length ? (
        <p className="report-muted">The host monitor of {monitors.length - shownMonitors.length} more job{monitors.length - shownMonitors.length === 1 ? '' : 's'} is in the app and the run&apos;s JSON.</p>
      ) : null}
      {part.category === 'network' ? <NetworkExtras run={run} /> : null}
      {/* iozone: every sub-test's grid per machine and relative, as small multiples */}
      <IozoneStudyMaps comparison={own} />
      {part.category === 'storage' ? <BonnieStudyTables run={run} comparison={own} testIds={testIds} /> : null}
      {part.category === 'storage' ? <Study002Bars run={run} comparison={own} /> : null}
      {/* study 001's tables from the whole comparison: its CPU table holds UnixBench's File Copy, a storage figure */}
      <Study001Tables run={run} comparison={comparisonOf(run)} category={part.category} />
      {part.category === 'storage' ? <StudyMultiples run={run} comparison={own} /> : null}
      {/* iozone's cells are in its heat maps above (hundreds of them), not in this table */}
      {own.rows.some((r) => !isSurfaceRow(r)) ? (
        <FigureTable comparison={own} rows={own.rows.filter((r) => !isSurfaceRow(r))} tests={part.tests.map((t) => testHead(run, t))} caption={`${title}: every figure, by test (primary figures in bold)`} />
      ) : null}
      {disk.length > 0 ? <DiskActivityTable rows={disk} /> : null}
      {part.category === 'storage' || part.category === 'other' ? <DiskActivityStudy run={run} testIds={testIds} /> : null}
      {notes.length > 0 ? (
        <div className="report-block">
          <h3>Warnings and failures</h3>
          <ul className="report-flags">
            {notes.flatMap(({ test, notes }) =>
              notes.map((n, i) => (
                <li key={`${test.id}-${i}`}>
                  <strong>{n.kind === 'error' ? 'Failed' : 'Warning'}</strong> · {test.title} · {n.sides.join(', ')}
                  {n.jobs > 1 ? ` · ${n.jobs} jobs` : ''}: {n.text}
                  {n.varies ? <span className="report-muted"> (the first job&apos;s figures; the others differ)</span> : null}
                </li>
              ))
            )}
          </ul>
        </div>
      ) : null}
      {tall && views.length > 0 ? <div className="report-charts">{views.map(relative)}</div> : null}
    </Section>
  )
}

/** The host monitor's figures: what the block layer did during each test, as each machine saw it. */
function DiskActivityTable({ rows }: { rows: DiskActivityRow[] }): ReactElement {
  return (
    <table className="report-table report-disk">
      <caption>Disk activity during the jobs (host monitor, /proc/diskstats): the median of each test&apos;s jobs</caption>
      <thead>
        <tr>
          <th scope="col">Test</th>
          <th scope="col">Target</th>
          <th scope="col">Seen as</th>
          <th scope="col" className="num-head">
            Read
          </th>
          <th scope="col" className="num-head">
            Write
          </th>
          <th scope="col" className="num-head">
            IOPS read / write
          </th>
          <th scope="col" className="num-head">
            Busy
          </th>
          <th scope="col" className="num-head">
            Jobs
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.test}-${r.target}-${r.source}`}>
            <th scope="row">{r.test}</th>
            <td>{r.target}</td>
            <td>{r.source.split(' · ').slice(1).join(' · ') || r.source}</td>
            <td className="num">{formatValue(r.readBytesPerSecond, 'B/s')}</td>
            <td className="num">{formatValue(r.writeBytesPerSecond, 'B/s')}</td>
            <td className="num">
              {formatValue(r.readIops, 'op/s')} / {formatValue(r.writeIops, 'op/s')}
            </td>
            <td className="num">{formatValue(r.busyPct, '%')}</td>
            <td className="num">{r.jobs}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Where every measured step's raw output is kept, per test and target. */
/** `steps`: a sweep's, each step's files under its own folder (relative to the sweep's). */
export function RawOutputSection({ run, steps }: { run: RunDocument; steps?: { dir: string; run: RunDocument }[] }): ReactElement {
  // typed-in (published) figures have jobs but no output to point at
  const of = (r: RunDocument, dir?: string) => rawOutputIndex(r).filter((e) => e.files.length > 0).map((e) => (dir ? { ...e, test: `${dir} · ${e.test}`, files: e.files.map((f) => `${dir}/${f}`) } : e))
  const entries = steps ? steps.flatMap((s) => of(s.run, s.dir)) : of(run)
  return (
    <Section id="raw-output" title="Raw output" flow lead="The measured step's output of every job, as the tool printed it, in the run's folder (paths relative to it); its stderr and the other steps' output lie beside it.">
      {entries.length === 0 ? (
        <p>{run.source ? 'Published figures, typed in: there is no raw output.' : 'No job of this run kept raw output.'}</p>
      ) : (
        <table className="report-table report-raw">
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Target</th>
              <th scope="col" className="num">
                Jobs
              </th>
              <th scope="col">Measured step&apos;s output</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={`${e.test}-${e.target}`}>
                <th scope="row">{e.test}</th>
                <td>{e.target}</td>
                <td className="num">
                  {e.jobs}
                  {e.failed > 0 ? ` (${e.failed} failed)` : ''}
                </td>
                <td className="mono report-small">{e.files.join(' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  )
}

export function NetworkSection({ run }: { run: RunDocument }): ReactElement {
  return (
    <Section id="network" title="Network between machines">
      <NetworkExtras run={run} />
    </Section>
  )
}

/**
 * Between machines: the network matrix (a heat map from three machines up; a matrix of two
 * machines is two figures, written as a table) and the simultaneous-clients tables.
 */
function NetworkExtras({ run }: { run: RunDocument }): ReactElement | null {
  const grids = matrixGrids(run)
  const tables = simultaneousTables(run)
  if (grids.length === 0 && tables.length === 0) return null
  const heat = grids.filter((g) => g.machines.length > 2)
  const pairs = grids.filter((g) => g.machines.length <= 2).flatMap((g) => matrixPairs(g).map((p) => ({ grid: g, ...p })))
  return (
    <div className="report-block report-network" data-network="true">
      {heat.length > 0 ? (
        <div className="report-charts">
          {heat.map((g) => (
            <NetworkMatrixHeatmap key={g.key} run={run} grid={g.key} />
          ))}
        </div>
      ) : null}
      {pairs.length > 0 ? (
        <table className="report-table report-pairs">
          <caption>Network matrix: each machine to the other, {aggregateWords(pairs[0]!.grid.aggregate)}</caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">From → to</th>
              <th scope="col" className="num-head">
                Value
              </th>
              <th scope="col" className="num-head">
                Repetitions
              </th>
            </tr>
          </thead>
          <tbody>
            {pairs.map((p) => (
              <tr key={`${p.grid.key}-${p.pair}`}>
                <th scope="row">{p.grid.label}</th>
                <td>{p.pair}</td>
                <td className="num">{formatValue(p.value, p.grid.unit)}</td>
                <td className="num">{p.values.map((v) => formatValue(v, p.grid.unit)).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <NetworkStudyTables run={run} />
      {tables.map((t) => (
        <table key={`${t.testId}-${t.metric}-${t.direction ?? ''}`} className="report-table">
          <caption>
            {t.testTitle}: clients at the same time against {t.peer} · <span className="mono">{t.metric}</span>
            {t.direction ? ` (${t.direction})` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col" className="num">
                Value
              </th>
              <th scope="col" className="num">
                Repetitions
              </th>
            </tr>
          </thead>
          <tbody>
            {t.clients.map((c) => (
              <tr key={c.client}>
                <th scope="row">{c.client}</th>
                <td className="num">{c.value !== undefined ? formatValue(c.value, t.unit) : '—'}</td>
                <td className="num">{c.values.map((v) => formatValue(v, t.unit)).join(', ') || 'none succeeded'}</td>
              </tr>
            ))}
            {t.total ? (
              <tr className="report-total">
                <th scope="row">All clients together</th>
                <td className="num">{t.total.value !== undefined ? formatValue(t.total.value, t.unit) : '—'}</td>
                <td className="num">{t.total.values.map((v) => formatValue(v, t.unit)).join(', ')}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      ))}
    </div>
  )
}

const ENV_GROUPS_DIFFERED = new Set(['System', 'CPU and memory', 'Block devices', 'Tools', 'Guests on this host (libvirt)'])

export function EnvironmentSection({ run }: { run: RunDocument }): ReactElement {
  const baseline = run.targets.find((t) => t.role === 'baseline')
  const baselineEnv = baseline ? environmentOf(run, baseline.name) : undefined
  return (
    <Section id="environment" title="Environment" flow lead="What VirtBench read on each target before measuring it. A fact a target does not expose is left out, never guessed.">
      {run.targets.map((t) => {
        const env = environmentOf(run, t.name)
        const fields = env ? environmentFields(env) : []
        const groups = [...new Set(fields.map((f) => f.group))]
        const mismatches = scenarioMismatchesOf(run, t.name)
        const differences = env && baselineEnv && t !== baseline ? environmentDifferences(baselineEnv, env).filter((d) => ENV_GROUPS_DIFFERED.has(d.group)) : []
        // with many variants, a variant's facts are its differences from the baseline (shown below)
        const brief = t.role === 'variant' && run.targets.length > 4 && baselineEnv !== undefined
        return (
          <div key={t.name} className="report-block report-env" data-target={t.name}>
            <h3>
              {t.label} <span className="report-muted">· {ROLE_TEXT[t.role]}</span>
            </h3>
            {t.scenario && describeScenario(t.scenario) ? (
              <p>
                Declared setup: <strong>{describeScenario(t.scenario)}</strong>
              </p>
            ) : null}
            {mismatches.length > 0 ? (
              <table className="report-table report-mismatch">
                <caption>Declared in the plan, and detected on the host</caption>
                <thead>
                  <tr>
                    <th scope="col">Setting</th>
                    <th scope="col">Declared</th>
                    <th scope="col">Detected</th>
                  </tr>
                </thead>
                <tbody>
                  {mismatches.map((m) => (
                    <tr key={`${m.field}-${m.declared}-${m.detected}`}>
                      <th scope="row">{m.field}</th>
                      <td className="mono">{m.declared || '—'}</td>
                      <td className="mono">≠ {m.detected || '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : t.scenario && t.role === 'variant' ? (
              <p className="report-muted">No difference found between the declared setup and what the host reports{t.scenario.domain ? ` for domain ${t.scenario.domain}` : ' (no libvirt domain was named, so only the guest itself was read)'}.</p>
            ) : null}
            {env && brief ? (
              <p className="report-muted">{[env.os, env.kernel, env.cpuCount !== undefined ? `${env.cpuCount} CPUs` : undefined, env.memoryBytes !== undefined ? formatValue(env.memoryBytes, 'B') : undefined, env.virtualization ? `virtualization ${env.virtualization}` : undefined].filter(Boolean).join(' · ')}</p>
            ) : env && baselineEnv && baseline && t !== baseline ? (
              <EnvironmentBesideBaseline env={env} baselineEnv={baselineEnv} label={t.label} baselineLabel={baseline.label} />
            ) : env ? (
              <table className="report-table report-env-table">
                <caption className="report-visually-hidden">Environment of {t.label}</caption>
                {groups.map((group) => (
                  <tbody key={group}>
                    <tr className="report-metric-head">
                      <th scope="rowgroup" colSpan={2}>
                        {group}
                      </th>
                    </tr>
                    {fields
                      .filter((f) => f.group === group)
                      .map((f) => (
                        <tr key={f.key}>
                          <th scope="row">{f.label}</th>
                          <td>{f.value}</td>
                        </tr>
                      ))}
                  </tbody>
                ))}
              </table>
            ) : (
              <p>No environment was captured for {t.label}.</p>
            )}
            {brief && differences.length > 0 && baseline ? (
              <table className="report-table report-diff">
                <caption>
                  Where {t.label} differs from {baseline.label}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Fact</th>
                    <th scope="col">{baseline.label}</th>
                    <th scope="col">{t.label}</th>
                  </tr>
                </thead>
                <tbody>
                  {differences.map((d) => (
                    <tr key={d.key}>
                      <th scope="row">{d.label}</th>
                      <td>{d.a ?? '—'}</td>
                      <td>{d.b ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </div>
        )
      })}
    </Section>
  )
}

/**
 * A target's facts beside the baseline's: its system in full, then only the facts that differ,
 * each with the baseline's value; the facts they share are said once, in the baseline's table.
 */
function EnvironmentBesideBaseline({ env, baselineEnv, label, baselineLabel }: { env: TargetEnvironment; baselineEnv: TargetEnvironment; label: string; baselineLabel: string }): ReactElement {
  const base = new Map(environmentFields(baselineEnv).map((f) => [f.key, f.value]))
  const fields = environmentFields(env)
  const own = new Set(fields.map((f) => f.key))
  const rows = [
    ...fields.filter((f) => f.group === 'System' || base.get(f.key) !== f.value).map((f) => ({ key: f.key, group: f.group, label: f.label, value: f.value, baseline: base.get(f.key) })),
    ...environmentDifferences(baselineEnv, env)
      .filter((d) => !own.has(d.key))
      .map((d) => ({ key: d.key, group: d.group, label: d.label, value: '—', baseline: d.a }))
  ]
  const groups = [...new Set(rows.map((r) => r.group))]
  const same = fields.length - rows.filter((r) => own.has(r.key)).length
  return (
    <>
      <table className="report-table report-env-table report-env-beside">
        <caption className="report-visually-hidden">
          Environment of {label}, beside {baselineLabel}
        </caption>
        <thead>
          <tr>
            <th scope="col">Fact</th>
            <th scope="col">{label}</th>
            <th scope="col">{baselineLabel}, where it differs</th>
          </tr>
        </thead>
        {groups.map((group) => (
          <tbody key={group}>
            <tr className="report-metric-head">
              <th scope="rowgroup" colSpan={3}>
                {group}
              </th>
            </tr>
            {rows
              .filter((r) => r.group === group)
              .map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.label}</th>
                  <td>{r.value}</td>
                  <td className="report-muted">{r.baseline === r.value ? '' : (r.baseline ?? '—')}</td>
                </tr>
              ))}
          </tbody>
        ))}
      </table>
      <p className="report-muted report-small">
        {same > 0 ? `${same} other fact${same === 1 ? ' is' : 's are'} the same as on ${baselineLabel}.` : `No other fact is the same as on ${baselineLabel}.`}
      </p>
    </>
  )
}

export function MethodSection({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement {
  const commands = commandList(run)
  const schedule = run.plan.schedule.order === 'grouped' ? 'grouped (every repetition of a target in a row)' : 'interleaved (baseline and variants take turns, A B A B), so a slow drift of the hosts affects every side alike'
  return (
    <Section id="method" title="Method" flow>
      <div className="report-block">
        <h3>Schedule</h3>
        <p>
          Jobs were run {schedule}. Each test&apos;s tool, parameters and repetitions head its figures on its category&apos;s page.
        </p>
        <h3>How the figures, the interval and the flags are computed</h3>
        <p>{comparison.method}</p>
      </div>
      {runJobFiles(run.tests).length > 0 ? (
        <div className="report-block">
          <h3>fio job files</h3>
          <JobFiles run={run} open />
        </div>
      ) : null}
      <div className="report-block">
        <h3>Commands run on each target</h3>
        <p className="report-muted">Exactly as run, each distinct command once, with the targets that ran it. The raw output of every step is kept in the run&apos;s folder (below).</p>
        {commands.map((c, i) => (
          <div key={i} className="report-command">
            <p className="report-muted">
              <strong>{c.targets.join(', ')}</strong> · {c.tests.join('; ')} · {c.step === 'measured' ? 'the measured step' : `step ${c.step}`}
              {c.times > 1 ? ` · run ${c.times} times` : ''}
            </p>
            <pre className="mono">{c.command}</pre>
          </div>
        ))}
      </div>
    </Section>
  )
}
