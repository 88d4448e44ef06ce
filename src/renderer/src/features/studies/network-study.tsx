import { useMemo, useState, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import { MACHINE_WORDS, networkStudies, studyCellText, studyNotes, studyTitle, type NetworkStudy, type StudyCell } from '../../../../shared/studies/network-study'
import { ChartCard, ChartSelect, useChartPrint } from '../charts/chart-parts'
import './studies.css'

const HOW_TO_READ =
  'Study 001’s network tables. The grid groups the matrix by kind of machine: rows send, columns receive, and the diagonal is a machine to a second machine of its kind ' +
  '(a physical host to another, a VM to another VM). Each cell pools every pair of its kinds and gives its % of physical → physical. The scenario table has one row per ' +
  'network path. A figure held just below a round limit is named: lift the cap before reading it as the network’s speed.'

const KINDS = ['host', 'guest'] as const

/**
 * Study 001's Source x Destination grid (one per network path) and its scenario table (one row per
 * path) with % of physical → physical, from the run's matrix jobs, with the reasons a cell has no
 * figure or no % and the caps found. In the app one figure at a time; in print (the PDF) each.
 */
export function NetworkStudyTables({ run }: { run: RunDocument }): ReactElement | null {
  const studies = useMemo(() => networkStudies(run), [run])
  const print = useChartPrint()
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  if (studies.length === 0) return null
  const keyOf = (s: NetworkStudy): string => studyTitle(s)
  const study = studies.find((s) => keyOf(s) === chosen) ?? studies[0]!
  const shown = print ? studies : [study]
  return (
    <ChartCard
      wide
      title="Network by kind of machine and path (study 001)"
      shown={print ? `${studies.length} figure${studies.length === 1 ? '' : 's'}` : studyTitle(study)}
      howToRead={HOW_TO_READ}
      controls={
        !print && studies.length > 1 ? (
          <ChartSelect label="Figure" value={keyOf(study)} onChange={setChosen} options={studies.map((s) => ({ value: keyOf(s), label: studyTitle(s) }))} />
        ) : undefined
      }
    >
      {shown.map((s) => (
        <StudyBlock key={keyOf(s)} study={s} />
      ))}
    </ChartCard>
  )
}

function StudyBlock({ study }: { study: NetworkStudy }): ReactElement {
  const notes = studyNotes(study)
  return (
    <div className="studies-network" data-study={studyTitle(study)}>
      {study.grids.map((grid) => (
        <table key={grid.path ?? ''} className="charts-table studies-network-grid">
          <caption>
            {studyTitle(study)}
            {grid.pathLabel ? `, ${grid.pathLabel}` : ''}: source (rows) to destination (columns), % of physical → physical
          </caption>
          <thead>
            <tr>
              <th scope="col">from ↓ to →</th>
              {KINDS.map((k) => (
                <th key={k} scope="col">
                  {MACHINE_WORDS[k]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {KINDS.map((from, r) => (
              <tr key={from}>
                <th scope="row">{MACHINE_WORDS[from]}</th>
                {KINDS.map((to, c) => (
                  <Cell key={to} cell={grid.cells[r * 2 + c]!} study={study} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      {study.paths.length > 0 ? (
        <table className="charts-table studies-network-paths">
          <caption>{studyTitle(study)}: one row per network path, % of physical → physical</caption>
          <thead>
            <tr>
              <th scope="col">Scenario</th>
              <th scope="col">Performance</th>
            </tr>
          </thead>
          <tbody>
            {study.paths.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <Cell cell={row} study={study} />
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {notes.length > 0 ? (
        <ul className="charts-note studies-network-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

function Cell({ cell, study }: { cell: StudyCell; study: NetworkStudy }): ReactElement {
  const title = cell.value === undefined ? cell.note : `${cell.pairs.join(', ')}: ${cell.values.length} repetition${cell.values.length === 1 ? '' : 's'}`
  return (
    <td title={title} data-cap={cell.capBits !== undefined ? 'true' : undefined}>
      {studyCellText(cell, study.unit)}
      {cell.capBits !== undefined ? <span className="studies-network-cap"> (cap?)</span> : null}
    </td>
  )
}
