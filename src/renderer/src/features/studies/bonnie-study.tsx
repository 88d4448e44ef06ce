import { useMemo, type ReactElement } from 'react'
import { VERDICT_WORDS } from '../../../../shared/compare/summary'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import {
  BONNIE_STUDY_FIGURES,
  bonnieStudies,
  bonnieTitle,
  cpuText,
  figureText,
  figureWords,
  type BonnieFigure,
  type BonnieStudy
} from '../../../../shared/studies/bonnie-study'
import { ChartCard } from '../charts/chart-parts'
import './studies.css'

const HOW_TO_READ =
  'bonnie++’s own figures laid out as its report and study 000’s table: one row per machine, each figure with the %CPU bonnie++ printed beside it, ' +
  'and a guest’s figure as a % of the baseline’s in brackets (100 % is as fast). “+++++” is bonnie++’s mark for a test that took under 0.5 s, too fast to time: there is no figure to show.'

/** bonnie++'s column groups over its six figures, as its text report heads them. */
const GROUPS = [...new Set(BONNIE_STUDY_FIGURES.map((f) => f.group))].map((group) => ({
  group,
  span: BONNIE_STUDY_FIGURES.filter((f) => f.group === group).length * 2
}))

/**
 * Study 000's bonnie++ table, one per bonnie++ test of the run: the machines compared as rows,
 * bonnie++'s sequential output, sequential input and random seek figures with their %CPU as
 * columns, each guest's figure with its % of the baseline, and why a figure is missing. The same
 * in the app and on paper (every test given).
 */
export function BonnieStudyTables({
  run,
  comparison,
  testIds
}: {
  run: RunDocument
  comparison: Comparison
  /** Only these tests (a report's category). */
  testIds?: ReadonlySet<string>
}): ReactElement | null {
  const all = useMemo(() => bonnieStudies(run, comparison), [run, comparison])
  const studies = testIds ? all.filter((s) => testIds.has(s.testId)) : all
  if (studies.length === 0) return null
  return (
    <ChartCard
      wide
      title="bonnie++ per machine (study 000)"
      shown={`${studies.length} test${studies.length === 1 ? '' : 's'}`}
      howToRead={HOW_TO_READ}
    >
      {studies.map((study) => (
        <BonnieTable key={study.testId} study={study} />
      ))}
    </ChartCard>
  )
}

function BonnieTable({ study }: { study: BonnieStudy }): ReactElement {
  return (
    <div className="studies-bonnie" data-test={study.testId}>
      <div className="charts-scroll" role="region" aria-label={`bonnie++ figures of ${study.testTitle}`} tabIndex={0}>
        <table className="charts-table studies-bonnie-table">
          <caption>{bonnieTitle(study)}</caption>
          <thead>
            <tr>
              <td />
              {GROUPS.map((g) => (
                <th key={g.group} scope="colgroup" colSpan={g.span}>
                  {g.group}
                </th>
              ))}
            </tr>
            <tr>
              <th scope="col">machine</th>
              {BONNIE_STUDY_FIGURES.flatMap((f) => [
                <th key={f.id} scope="col" title={`bonnie.${f.id}`}>
                  {f.group === 'Random' ? 'seeks' : f.words}
                </th>,
                <th key={`${f.id}-cpu`} scope="col" title={`bonnie.${f.id}.cpu`}>
                  %CPU
                </th>
              ])}
            </tr>
          </thead>
          <tbody>
            {study.rows.map((row) => (
              <tr key={row.machine} data-role={row.role}>
                <th scope="row">{row.machine}</th>
                {row.figures.flatMap((f) => [
                  <td key={f.id} title={figureTitle(row.machine, f)} data-missing={f.missing}>
                    {figureText(f)}
                  </td>,
                  <td key={`${f.id}-cpu`}>{cpuText(f)}</td>
                ])}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {study.notes.length > 0 ? (
        <ul className="charts-note studies-bonnie-notes">
          {study.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** The hover text: what the figure is, and its verdict against the baseline. */
function figureTitle(machine: string, f: BonnieFigure): string {
  const what = `${figureWords(f.id)} on ${machine}`
  if (f.value === undefined) return `${what}: ${figureText(f)}`
  return f.verdict ? `${what}: ${VERDICT_WORDS[f.verdict]}` : what
}
