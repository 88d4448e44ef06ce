import { useId, useState, type ReactElement } from 'react'
import type { InvokeResponse } from '../../../../shared/contract'
import type { RunDocument } from '../../../../shared/model/run'
import { compare } from '../../../../shared/compare'
import { overheadCsv } from '../../../../shared/export/comparison-rows'
import { runCsv, sweepCsv } from '../../../../shared/export/csv'
import { sweepComparisonInput, sweepOverheadCsv } from '../../../../shared/export/sweep-comparison'
import { sweepJson } from '../../../../shared/export/sweep-json'
import { PAPER_MM, PAPER_SIZES, reportFileStem, type PaperSize, type ReportOptions } from '../../../../shared/report'
import { reportInputOf } from '../../../../shared/report-input'
import { comparisonInputOf } from '../../../../shared/run-comparison'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'
import { downloadBlob } from '../../lib/download'
import './export-panel.css'

function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64)
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

type Status = { kind: 'busy' | 'done' | 'error'; text: string } | undefined

/**
 * Export a run: the PDF comparison report (printed by main from the same page `virtbench report`
 * prints), tidy CSV, the overhead table as CSV and the run document as JSON, each with host names
 * and addresses left out when asked (docs/export.md).
 */
export function ExportPanel({ run, printable = true }: { run: RunDocument; printable?: boolean }): ReactElement {
  const api = useAppStore((s) => s.api)
  const [paper, setPaper] = useState<PaperSize>('a4')
  const [redact, setRedact] = useState(false)
  const [author, setAuthor] = useState('')
  const [status, setStatus] = useState<Status>(undefined)
  const id = useId()
  const options = (): ReportOptions => ({ paper, redact, ...(author.trim() ? { author: author.trim() } : {}) })
  const stem = reportFileStem(run)
  const busy = status?.kind === 'busy'

  const savePdf = async (): Promise<void> => {
    if (!api) {
      setStatus({ kind: 'error', text: 'Not connected to VirtBench: reload the window.' })
      return
    }
    setStatus({ kind: 'busy', text: 'Making the PDF report…' })
    try {
      const result = await api.invoke('runs:report', { id: run.id, options: options() })
      downloadBlob(result.fileName, new Blob([base64Bytes(result.pdf)], { type: 'application/pdf' }))
      const pages = result.pages !== undefined ? `${result.pages} pages, ` : ''
      setStatus({ kind: 'done', text: `Saved ${result.fileName} (${pages}${sizeText(result.bytes)}, made in ${result.seconds.toFixed(1)} s).` })
    } catch (error) {
      setStatus({ kind: 'error', text: apiMessage(error) })
    }
  }
  const exported = (): RunDocument => reportInputOf(run, options(), { appVersion: __APP_VERSION__, now: new Date() }).run
  /** A sweep's every step (docs/export.md#a-sweep), or undefined for a run of its own. */
  const sweepSteps = async (): Promise<Extract<InvokeResponse<'runs:sweep'>, { sweep: true }> | undefined> => {
    if (!run.plan.sweep || !api) return undefined
    const got = await api.invoke('runs:sweep', { id: run.id })
    return got.sweep ? got : undefined
  }
  const save = async (kind: 'csv' | 'overhead' | 'json'): Promise<void> => {
    const name = `${stem}${kind === 'overhead' ? '-overhead' : ''}${redact ? '-redacted' : ''}.${kind === 'json' ? 'json' : 'csv'}`
    try {
      const sweep = await sweepSteps()
      if (kind === 'overhead') {
        // the overhead table for a spreadsheet, as virtbench report --overhead-csv writes it (from the same
        // report input, redacted when asked); a sweep's every combination
        const input = reportInputOf(run, options(), { appVersion: __APP_VERSION__, now: new Date() }, sweep ? { total: sweep.total, steps: sweep.steps } : undefined)
        const text = input.sweep ? sweepOverheadCsv(sweepComparisonInput(input.run, input.sweep.steps)) : overheadCsv(compare(comparisonInputOf(input.run)))
        downloadBlob(name, new Blob([text], { type: 'text/csv' }))
        setStatus({ kind: 'done', text: `Saved ${name}: one row per ${sweep ? 'combination, ' : ''}variant and figure, with the baseline, the relative %, its 95 % interval and the verdict.` })
      } else if (kind === 'csv') {
        downloadBlob(name, new Blob([sweep ? sweepCsv({ run, steps: sweep.steps }, { redact }) : runCsv(exported())], { type: 'text/csv' }))
        setStatus({ kind: 'done', text: `Saved ${name}: one measured value per row${sweep ? `, of ${sweep.steps.length} steps` : ''}.` })
      } else {
        const text = sweep ? sweepJson({ run, record: sweep.record, total: sweep.total, steps: sweep.steps }, { redact }) : `${JSON.stringify(exported(), null, 2)}\n`
        downloadBlob(name, new Blob([text], { type: 'application/json' }))
        setStatus({ kind: 'done', text: `Saved ${name}: the ${sweep ? 'sweep with every step' : 'run document'}${redact ? ', redacted' : ''}.` })
      }
    } catch (error) {
      setStatus({ kind: 'error', text: apiMessage(error) })
    }
  }
  const saveCsv = (): void => void save('csv')
  const saveJson = (): void => void save('json')
  const saveOverhead = (): void => void save('overhead')

  return (
    <section className="card export-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Export</h3>
      <div className="export-options">
        <div className="export-field">
          <label htmlFor={`${id}-paper`}>Paper</label>
          <select id={`${id}-paper`} value={paper} onChange={(e) => setPaper(e.target.value as PaperSize)}>
            {PAPER_SIZES.map((p) => (
              <option key={p} value={p}>
                {PAPER_MM[p].label}
              </option>
            ))}
          </select>
        </div>
        <div className="export-field">
          <label htmlFor={`${id}-author`}>Prepared by (optional)</label>
          <input id={`${id}-author`} type="text" maxLength={120} value={author} onChange={(e) => setAuthor(e.target.value)} placeholder="On the title page" />
        </div>
        <label className="export-check">
          <input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} />
          Leave out host names and addresses, and name the targets by role (host A, guest 1)
        </label>
      </div>
      <div className="export-actions">
        {printable ? (
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void savePdf()}>
            Save PDF report
          </button>
        ) : null}
        <button type="button" className="button" disabled={busy} onClick={saveCsv}>
          Save CSV
        </button>
        <button type="button" className="button" disabled={busy} onClick={saveOverhead} title="One row per variant and figure: the baseline, the value, the relative %, its 95 % interval, n and the verdict (for a spreadsheet)">
          Save overhead CSV
        </button>
        <button type="button" className="button" disabled={busy} onClick={saveJson}>
          Save JSON
        </button>
      </div>
      {printable ? null : (
        <p className="export-note">
          This run is read from the team store, so the app cannot print it: save its JSON as <code>run.json</code>, then run <code>virtbench report run.json --pdf report.pdf</code>.
        </p>
      )}
      <p className={`export-status${status?.kind === 'error' ? ' export-status-error' : ''}`} role="status" aria-live="polite">
        {status?.text ?? ''}
      </p>
    </section>
  )
}
