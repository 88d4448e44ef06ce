import { useMemo, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import { runJobFiles } from '../../../../shared/fio-job-file/of-run'
import './studies.css'

/**
 * The fio job files the run kept (an admin's own, study 003's way), verbatim: in the app each
 * behind a disclosure, closed by default; on paper (`open`) written out.
 */
export function JobFiles({ run, open = false }: { run: RunDocument; open?: boolean }): ReactElement | null {
  const files = useMemo(() => runJobFiles(run.tests), [run.tests])
  if (files.length === 0) return null
  return (
    <div className="studies-job-files">
      {files.map((f) =>
        open ? (
          <div key={f.testId} className="studies-job-file" data-test={f.testId}>
            <p>
              fio job file of <strong>{f.title}</strong>, as run:
            </p>
            <pre className="mono">{f.text}</pre>
          </div>
        ) : (
          <details key={f.testId} className="results-method studies-job-file" data-test={f.testId}>
            <summary>fio job file of {f.title}, as run</summary>
            <pre className="mono">{f.text}</pre>
          </details>
        )
      )}
    </div>
  )
}
