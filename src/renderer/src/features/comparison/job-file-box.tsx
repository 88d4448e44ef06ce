import type { ReactElement } from 'react'
import { describedByOf, FieldMessages } from '../../components/field'
import { fieldId } from '../../models/wizard-draft'

/**
 * fio's own job file (params.jobFile): a box to paste the file's text into, kept as typed, line
 * breaks included (a one-line input would drop them). Main checks it as the plan is reviewed; its
 * messages name the line, the section and the option (docs/cli.md, "Your own fio job file").
 */
export function JobFileBox({
  path,
  value,
  error,
  onChange
}: {
  path: string
  value: unknown
  error: string | undefined
  onChange: (value: string | undefined) => void
}): ReactElement {
  const id = fieldId(path)
  const hint =
    "Paste your fio job file to run it as written, in the run's work directory; the options above are then not used. No exec_prerun/exec_postrun, paths only inside the work directory (or the confirmed raw device), and a size for each job. Leave empty for the options above."
  return (
    <div className={['field', error ? 'field-invalid' : undefined].filter(Boolean).join(' ')} style={{ gridColumn: '1 / -1' }}>
      <label htmlFor={id}>Your own fio job file</label>
      <textarea
        id={id}
        className="mono"
        rows={8}
        value={typeof value === 'string' ? value : ''}
        placeholder={'[virt]\nioengine=libaio\niodepth=4\nrw=randrw\nbs=64k\ndirect=1\nsize=1g\nnumjobs=4'}
        spellCheck={false}
        autoComplete="off"
        aria-describedby={describedByOf(id, error, hint)}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}
