import { useMemo, type ReactElement } from 'react'
import { VERDICT_WORDS } from '../../../../shared/compare/summary'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import type { MetricCategory } from '../../../../shared/model/sample'
import {
  FIO_FIGURES,
  fioCaption,
  fioPctText,
  fioValueText,
  overheadCaption,
  overheadText,
  study001Tables,
  toolValueText,
  type FioScenarioTable,
  type OverheadTable
} from '../../../../shared/studies/study001-tables'
import { ChartCard } from '../charts/chart-parts'
import './studies.css'

const OVERHEAD_HOW =
  'Study 001’s CPU and memory tables: each figure in the unit the tool printed (UnixBench’s lps, MWIPS and KBps, mbw’s MiB/s), and each guest’s ' +
  'virtualization overhead, (Physical − Virtual) / Physical, with its 95 % interval and verdict. An overhead marked “can’t tell” is within what the repetitions vary by: not a finding.'

const FIO_HOW =
  'Study 001’s fio table: one row per machine (the baseline, then each guest), each job’s IOPS and throughput, and under a guest’s figure its % of the baseline’s (100 % is as fast; “can’t tell” where the repetitions cannot tell it from the baseline).'

/**
 * Study 001's own tables, beside the overhead table: the CPU (UnixBench) and memory (mbw) overhead
 * tables, and the fio table per scenario. Only for runs of its pack; in a report, `category` keeps
 * the tables of one part (the CPU and memory tables in theirs, fio's with storage).
 */
export function Study001Tables({ run, comparison, category }: { run: RunDocument; comparison: Comparison; category?: MetricCategory | 'other' }): ReactElement | null {
  const tables = useMemo(() => study001Tables(run, comparison), [run, comparison])
  const overhead = tables.overhead.filter((t) => category === undefined || t.category === category)
  const fio = category === undefined || category === 'storage' ? tables.fio : undefined
  return (
    <>
      {overhead.length > 0 ? (
        <ChartCard wide title="CPU and memory overhead (study 001)" shown={overhead.map((t) => t.title).join(', ')} howToRead={OVERHEAD_HOW}>
          {overhead.map((t) => (
            <OverheadTableView key={t.id} table={t} />
          ))}
        </ChartCard>
      ) : null}
      {fio ? (
        <ChartCard wide title="fio per scenario (study 001)" shown={`${fio.columns.length} job${fio.columns.length === 1 ? '' : 's'}`} howToRead={FIO_HOW}>
          <FioTableView table={fio} />
        </ChartCard>
      ) : null}
    </>
  )
}

function OverheadTableView({ table }: { table: OverheadTable }): ReactElement {
  return (
    <>
      <div className="charts-scroll" role="region" aria-label={table.title} tabIndex={0}>
        <table className="charts-table studies-s001-overhead" data-table={table.id}>
          <caption>{overheadCaption(table)}</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">{table.baseline}</th>
              {table.variants.flatMap((v) => [
                <th key={v} scope="col">
                  {v}
                </th>,
                <th key={`${v}-overhead`} scope="col">
                  Overhead of {v}
                </th>
              ])}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={`${row.testId}-${row.name}`}>
                <th scope="row" title={row.metric}>
                  {row.name}
                </th>
                <td>{toolValueText(row.baseline, row.tool)}</td>
                {row.cells.flatMap((c) => [
                  <td key={c.variant}>{toolValueText(c.value, row.tool)}</td>,
                  <td key={`${c.variant}-overhead`} data-verdict={c.verdict}>
                    {overheadText(c)}
                  </td>
                ])}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {table.notes.length > 0 ? (
        <ul className="charts-note studies-s001-notes">
          {table.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

function FioTableView({ table }: { table: FioScenarioTable }): ReactElement {
  return (
    <div className="charts-scroll" role="region" aria-label="fio figures per scenario" tabIndex={0}>
      <table className="charts-table studies-s001-fio">
        <caption>{fioCaption(table)}</caption>
        <thead>
          <tr>
            <td />
            {table.columns.map((c) => (
              <th key={`${c.testId}-${c.direction}`} scope="colgroup" colSpan={FIO_FIGURES.length}>
                {c.title}
              </th>
            ))}
          </tr>
          <tr>
            <th scope="col">Scenario</th>
            {table.columns.flatMap((c) =>
              FIO_FIGURES.map((f) => (
                <th key={`${c.testId}-${c.direction}-${f.id}`} scope="col" title={`fio.${c.direction}.${f.id}`}>
                  {f.words}
                </th>
              ))
            )}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.machine} data-role={row.role}>
              <th scope="row">{row.machine}</th>
              {row.cells.flatMap((figures, c) =>
                figures.map((cell, f) => (
                  <td key={`${c}-${f}`} data-missing={cell.value === undefined ? 'true' : undefined} title={cell.verdict ? VERDICT_WORDS[cell.verdict] : undefined}>
                    <span className="studies-s001-value">{fioValueText(cell)}</span>
                    {cell.value !== undefined ? (
                      <>
                        <br />
                        <PctText text={fioPctText(cell, row.role)} />
                      </>
                    ) : null}
                  </td>
                ))
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** "(95 %, can't tell)", breaking only after the comma on a narrow page. */
function PctText({ text }: { text: string }): ReactElement {
  const [pct, verdict] = text.split(', ')
  return (
    <span className="studies-s001-pct">
      <span className="studies-s001-nowrap">{verdict === undefined ? pct : `${pct},`}</span>
      {verdict === undefined ? null : (
        <>
          {' '}
          <span className="studies-s001-nowrap">{verdict}</span>
        </>
      )}
    </span>
  )
}
