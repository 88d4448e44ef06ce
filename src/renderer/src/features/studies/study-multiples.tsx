import { useMemo, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import { isStudy003Run, multipleReadings } from '../../../../shared/studies/multiples'
import './studies.css'

/**
 * Study 003's reading for its pack (or an fio job file of the admin's own): each slower or faster
 * primary figure as a multiple of the baseline's, "11.2x faster than raid1 [10.8–11.6]", as the
 * CLI prints it under its table.
 */
export function StudyMultiples({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement | null {
  const readings = useMemo(() => (isStudy003Run(run) ? multipleReadings(comparison) : []), [run, comparison])
  if (!isStudy003Run(run)) return null
  return (
    <section className="results-section studies-multiples" aria-label="As multiples of the baseline">
      <h3>As multiples of the baseline</h3>
      {readings.length === 0 ? (
        <p className="muted">No primary figure is slower or faster than {comparison.baseline} by its verdict, so there is no multiple to give.</p>
      ) : (
        <table className="charts-table">
          <caption>Slower and faster primary figures as study 003 reads them, with the 95 % interval in brackets</caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">Variant</th>
              <th scope="col">Against {comparison.baseline}</th>
            </tr>
          </thead>
          <tbody>
            {readings.map((m) => (
              <tr key={`${m.row.testId}-${m.row.metric}-${JSON.stringify(m.row.labels)}-${m.variant}`}>
                <th scope="row">
                  {m.row.testTitle} · <span className="mono">{m.row.metric}</span>
                </th>
                <td>{m.variant}</td>
                <td className="strong">{m.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
