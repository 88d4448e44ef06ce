import { useMemo, type ReactElement, type ReactNode } from 'react'
import { leadingRows, verdictCounts, verdictCountsText } from '../../../shared/compare/summary'
import type { Comparison } from '../../../shared/model/comparison'
import type { RunDocument, RunTest } from '../../../shared/model/run'
import { describeScenario } from '../../../shared/model/scenario'
import { formatValue } from '../../../shared/format'
import { simultaneousTables } from '../../../shared/network-tables'
import { describeRedaction } from '../../../shared/export/redact'
import { PAPER_MM, type ReportInput } from '../../../shared/report'
import { ChartPrintContext, GroupedBarsChart, IozoneHeatmap, LatencyChart, MonitorSeriesChart, NetworkMatrixHeatmap, RelativeChart } from '../features/charts'
import { matrixGrids } from '../features/charts/network-matrix'
import { comparisonOf } from '../features/results/comparison-of'
import { environmentDifferences, environmentFields, environmentOf, scenarioMismatchesOf } from '../features/results/environment-fields'
import { FLAG_TITLE, flagExplanation, flagFinding } from '../features/results/flag-text'
import { durationText, jobCounts, jobCountsText, RUN_STATUS_TEXT } from '../features/results/run-text'
import {
  barMetricKeys,
  CATEGORY_TITLE,
  commandsByTarget,
  flagEntries,
  flagGroups,
  hasLatency,
  headlineByCategory,
  iozoneViews,
  monitorJobIds,
  paramsText,
  relativeViewKeys,
  testComparison,
  testNotes
} from './report-data'
import { HeadlineMatrix, HeadlineTable, ReportOverheadTable } from './report-tables'

/** The plot width of every chart in the report, in CSS pixels: fits A4 and Letter inside the margins. */
export const REPORT_CHART_WIDTH = 640

const FULL_WIDTH = { width: REPORT_CHART_WIDTH }
/** The latency chart (a marker per target per latency) reads up to this many variants; beyond, the relative chart and the table carry the latencies. */
const LATENCY_CHART_VARIANTS = 6
/** Bar charts of figures go two to a row when there are few variants. */
const HALF_WIDTH = { width: 290 }

const ROLE_TEXT = { baseline: 'baseline (100 %)', variant: 'variant', peer: 'network peer' } as const

/** "21 Nov 2026, 09:14:03 UTC": dates in the report say their time zone. */
export function reportDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(date) + ' UTC'
}

/**
 * The PDF comparison report of a run (docs/export.md): title page, summary, one section per test,
 * network tables, environment, method. Charts are the app's own components in print mode (fixed
 * width, no controls); the page is printed by the app (printToPDF) and by `virtbench report`.
 */
export function ReportPage({ input }: { input: ReportInput }): ReactElement {
  const { run } = input
  const comparison = useMemo(() => comparisonOf(run), [run])
  return (
    <ChartPrintContext.Provider value={FULL_WIDTH}>
      <article className="report" data-paper={input.options.paper} aria-label={`Comparison report: ${run.name}`}>
        <TitlePage input={input} />
        <Contents run={run} comparison={comparison} />
        <SummarySection run={run} comparison={comparison} />
        {run.tests.map((test) => (
          <TestSection key={test.id} run={run} comparison={comparison} test={test} />
        ))}
        <NetworkSection run={run} />
        <EnvironmentSection run={run} />
        <MethodSection run={run} comparison={comparison} />
      </article>
    </ChartPrintContext.Provider>
  )
}

function Section({ id, title, children, lead }: { id: string; title: string; lead?: ReactNode; children: ReactNode }): ReactElement {
  return (
    <section className="report-section" id={id} data-section={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {lead ? <p className="report-lead">{lead}</p> : null}
      {children}
    </section>
  )
}

function TitlePage({ input }: { input: ReportInput }): ReactElement {
  const { run, options } = input
  const baseline = run.targets.find((t) => t.role === 'baseline')
  const variants = run.targets.filter((t) => t.role === 'variant')
  const peers = run.targets.filter((t) => t.role === 'peer')
  const took = run.endedAt ? durationText(run.createdAt, run.endedAt) : undefined
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
        {options.author ? (
          <>
            <dt>Prepared by</dt>
            <dd>{options.author}</dd>
          </>
        ) : null}
        <dt>Report</dt>
        <dd>
          Made {reportDate(input.generatedAt)} by VirtBench {input.appVersion}
          {run.app.version !== input.appVersion ? ` (measured with VirtBench ${run.app.version})` : ''} · {PAPER_MM[options.paper].label}
        </dd>
        <dt>Run</dt>
        <dd className="mono">{run.id}</dd>
      </dl>
      {input.redacted ? (
        <p className="report-note" data-redacted="true">
          {describeRedaction(input.redacted)} in this report: they are written as &lt;host-1&gt;, &lt;address-1&gt;… The run kept by
          VirtBench still has them.
        </p>
      ) : null}
    </section>
  )
}

function TargetLine({ label, scenario }: { label: string; scenario?: Parameters<typeof describeScenario>[0] }): ReactElement {
  const text = scenario ? describeScenario(scenario) : ''
  return (
    <>
      <strong>{label}</strong>
      {text ? <span className="report-muted"> · {text}</span> : null}
    </>
  )
}

function Contents({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement {
  const network = matrixGrids(run).length > 0 || simultaneousTables(run).length > 0
  const entries: [string, string][] = [
    ['summary', 'Summary'],
    ...run.tests.map((t): [string, string] => [`test-${t.id}`, t.title]),
    ...(network ? [['network', 'Network between machines'] as [string, string]] : []),
    ['environment', 'Environment'],
    ['method', 'Method']
  ]
  return (
    <nav className="report-contents" aria-label="Contents">
      <h2>Contents</h2>
      <ol>
        {entries.map(([id, title]) => (
          <li key={id}>
            <a href={`#${id}`}>{title}</a>
          </li>
        ))}
      </ol>
      <p className="report-muted">
        {comparison.rows.length} figures compared across {comparison.variants.length} variant{comparison.variants.length === 1 ? '' : 's'}.
      </p>
    </nav>
  )
}

/** Per variant, how many primary figures got each verdict; the baseline's own flags first. */
function VerdictSummary({ comparison }: { comparison: Comparison }): ReactElement {
  const leading = leadingRows(comparison)
  return (
    <div className="report-block report-verdicts">
      {comparison.baselineFlags.map((flag, i) => (
        <p key={i} className="report-warning">
          <strong>{FLAG_TITLE[flag.kind]}.</strong> {flag.message}
        </p>
      ))}
      <ul>
        {comparison.variants.map((variant, i) => (
          <li key={variant}>
            <strong>{variant}</strong>: {verdictCountsText(verdictCounts(leading, i))} <span className="report-muted">(primary figures)</span>
            {(comparison.variantFlags[variant] ?? [])
              .filter((f) => f.kind === 'same-machine')
              .map((f, j) => (
                <span key={j} className="report-warning">
                  {' · '}
                  <strong>{FLAG_TITLE[f.kind]}:</strong> {flagFinding(f)}
                </span>
              ))}
          </li>
        ))}
      </ul>
    </div>
  )
}

function SummarySection({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement {
  const categories = headlineByCategory(comparison)
  const flags = flagEntries(comparison)
  return (
    <Section
      id="summary"
      title="Summary"
      lead={`Relative % against ${comparison.baseline}: 100 % is as good as the baseline, more is better (latencies are inverted so this holds for them too). Overhead is 100 % minus relative %, shown only for a finding. Each figure's verdict comes from its 95 % interval: slower or faster when the whole interval lies below or above 100 %, the same when it lies within 100 % ± ${comparison.marginPct} %, and "can't tell" when it is too wide (or a side has one value).`}
    >
      <VerdictSummary comparison={comparison} />
      {categories.length === 0 ? <p>No primary figure has both a baseline and a variant value: nothing to summarise.</p> : null}
      {categories.map(({ category, rows }) => (
        <div key={category} className="report-block" data-category={category}>
          <h3>{CATEGORY_TITLE[category]}</h3>
          {comparison.variants.length > 3 ? (
            <HeadlineMatrix comparison={comparison} rows={rows} caption={`${CATEGORY_TITLE[category]}: relative % and 95 % interval against ${comparison.baseline}`} />
          ) : (
            <HeadlineTable comparison={comparison} rows={rows} caption={`${CATEGORY_TITLE[category]}: primary figures, relative to ${comparison.baseline}`} />
          )}
        </div>
      ))}
      <div className="report-block">
        <h3>Flags</h3>
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
                    {group.others.map((e) => `${e.variant} · ${e.figure ?? ''}`).join('; ')}. Each test&apos;s table marks them.
                  </p>
                ) : null}
              </div>
            )
          })
        )}
      </div>
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

function TestSection({ run, comparison, test }: { run: RunDocument; comparison: Comparison; test: RunTest }): ReactElement {
  const own = useMemo(() => testComparison(comparison, test.id), [comparison, test.id])
  const views = relativeViewKeys(own)
  const bars = barMetricKeys(own)
  const monitor = monitorJobIds(run, test.id)
  const iozone = iozoneViews(run, test.id)
  const notes = testNotes(run, test.id)
  const jobs = run.jobs.filter((j) => j.testId === test.id)
  const compareRows = own.rows
  // two to a row while the bars stay wide enough to read
  const paired = bars.length > 1 && own.variants.length <= 4
  return (
    <Section id={`test-${test.id}`} title={test.title}>
      <dl className="report-facts report-facts-compact">
        <dt>Tool</dt>
        <dd className="mono">{test.tool}</dd>
        <dt>Parameters</dt>
        <dd className="mono">{paramsText(test).join(' ') || 'the defaults'}</dd>
        <dt>Repetitions</dt>
        <dd>
          {test.repetitions} per target, compared by their {test.aggregate === 'best' ? 'best value' : test.aggregate} · {jobCountsText(jobCounts({ jobs }))}
        </dd>
      </dl>
      {compareRows.length === 0 ? <p>No figure of this test was compared: {jobs.length === 0 ? 'it ran no job' : 'no job of it succeeded on both sides'}.</p> : null}
      <div className="report-charts">
        {views.map((view) => (
          <RelativeChart key={view} comparison={own} view={view} />
        ))}
        {bars.length > 0 ? (
          <ChartPrintContext.Provider value={paired ? HALF_WIDTH : FULL_WIDTH}>
            <div className={paired ? 'report-charts-pair' : 'report-charts'}>
              {bars.map((metric) => (
                <GroupedBarsChart key={metric} comparison={own} metric={metric} />
              ))}
            </div>
          </ChartPrintContext.Provider>
        ) : null}
        {hasLatency(own) && own.variants.length <= LATENCY_CHART_VARIANTS ? <LatencyChart comparison={own} /> : null}
        {iozone.map((v) => (
          <IozoneHeatmap key={`${v.side}-${v.subtest}`} run={run} initial={{ testId: test.id, side: v.side, subtest: v.subtest }} />
        ))}
        {monitor.ids.map((id) => (
          <MonitorSeriesChart key={id} run={run} job={id} />
        ))}
      </div>
      {monitor.more > 0 ? <p className="report-muted">The host monitor of {monitor.more} more target{monitor.more === 1 ? '' : 's'} is in the app and the run's JSON.</p> : null}
      {compareRows.length > 0 ? <ReportOverheadTable comparison={own} rows={compareRows} caption={`${test.title}: every figure`} /> : null}
      {notes.length > 0 ? (
        <div className="report-block">
          <h3>Notes</h3>
          <ul className="report-flags">
            {notes.map((n, i) => (
              <li key={i}>
                <strong>{n.kind === 'error' ? 'Failed' : 'Warning'}</strong> · {n.sides.join(', ')}: {n.text}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Section>
  )
}

function NetworkSection({ run }: { run: RunDocument }): ReactElement | null {
  const grids = matrixGrids(run)
  const tables = simultaneousTables(run)
  if (grids.length === 0 && tables.length === 0) return null
  return (
    <Section id="network" title="Network between machines" lead="Every ordered pair of machines (rows send, columns receive), and clients run at once against one peer.">
      <div className="report-charts">
        {grids.map((g) => (
          <NetworkMatrixHeatmap key={g.key} run={run} grid={g.key} />
        ))}
      </div>
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
    </Section>
  )
}

const ENV_GROUPS_DIFFERED = new Set(['System', 'CPU and memory', 'Block devices', 'Tools', 'Guests on this host (libvirt)'])

function EnvironmentSection({ run }: { run: RunDocument }): ReactElement {
  const baseline = run.targets.find((t) => t.role === 'baseline')
  const baselineEnv = baseline ? environmentOf(run, baseline.name) : undefined
  return (
    <Section id="environment" title="Environment" lead="What VirtBench read on each target before measuring it. A fact a target does not expose is left out, never guessed.">
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
            {differences.length > 0 && baseline ? (
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

function MethodSection({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement {
  const commands = commandsByTarget(run)
  const schedule = run.plan.schedule.order === 'grouped' ? 'grouped (every repetition of a target in a row)' : 'interleaved (baseline and variants take turns, A B A B), so a slow drift of the hosts affects every side alike'
  return (
    <Section id="method" title="Method">
      <div className="report-block">
        <h3>Repetitions and aggregation</h3>
        <table className="report-table">
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Tool</th>
              <th scope="col" className="num">
                Repetitions
              </th>
              <th scope="col">Compared by</th>
            </tr>
          </thead>
          <tbody>
            {run.tests.map((t) => (
              <tr key={t.id}>
                <th scope="row">{t.title}</th>
                <td className="mono">{t.tool}</td>
                <td className="num">{t.repetitions}</td>
                <td>{t.aggregate === 'best' ? 'best value' : t.aggregate}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>Jobs were run {schedule}.</p>
        <h3>How the figures, the interval and the flags are computed</h3>
        <p>{comparison.method}</p>
      </div>
      <div className="report-block">
        <h3>Commands run on each target</h3>
        <p className="report-muted">Exactly as run, each distinct command once. The raw output of every step is kept in the run&apos;s folder.</p>
        {commands.map((t) => (
          <div key={t.target} className="report-commands" data-target={t.target}>
            <h4>{t.label}</h4>
            {t.commands.map((c, i) => (
              <div key={i} className="report-command">
                <p className="report-muted">
                  {c.tests.join('; ')} · {c.step === 'measured' ? 'the measured step' : `step ${c.step}`}
                  {c.times > 1 ? ` · run ${c.times} times` : ''}
                </p>
                <pre className="mono">{c.command}</pre>
              </div>
            ))}
          </div>
        ))}
      </div>
    </Section>
  )
}
