import type { ReactElement } from 'react'
import { describeBytes } from '../../../../shared/byte-limit'
import { ApiCallError } from '../../../../shared/contract'
import { formatValue } from '../../../../shared/format'
import { PRESET_TEXT_LIMIT_BYTES } from '../../../../shared/presets-contract'
import { apiMessage } from '../../lib/api-message'

export interface ImportProblem {
  /** Where in the document, e.g. `plan.variants[1].scenario.cache`; absent for a problem of the whole file. */
  field?: string
  text: string
}

const FIELD_LINE = /^([A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*): (.+)$/s

/**
 * Splits main's refusal of a preset file ("x.json is not a valid preset:" then one "- field: what
 * to do" line per problem) into its first line and the problems, each with its field.
 */
export function importProblems(message: string): { summary: string; problems: ImportProblem[] } {
  const [summary = '', ...rest] = message.split('\n')
  const problems = rest
    .map((line) => line.trim().replace(/^- /, ''))
    .filter((line) => line.length > 0)
    .map((line): ImportProblem => {
      const match = FIELD_LINE.exec(line)
      return match?.[1] && match[2] ? { field: match[1], text: match[2] } : { text: line }
    })
  return { summary, problems }
}

/**
 * Why a file of `bytes` cannot be imported, by its size alone (checked before anything is sent),
 * or undefined when it is small enough.
 */
export function presetFileSizeProblem(bytes: number): string | undefined {
  if (bytes <= PRESET_TEXT_LIMIT_BYTES) return undefined
  return `The file is ${formatValue(bytes, 'B')} (${bytes} bytes); a preset file is at most ${describeBytes(PRESET_TEXT_LIMIT_BYTES)}, so it was not sent. A preset is a few KiB: check that this is the right file.`
}

/** A refused import as the page keeps it: the file's name and what the API said. */
export interface ImportRefusal {
  fileName: string
  message: string
  /** Field problems the API gave apart from the message (a request it refused as invalid). */
  issues?: { path: string; message: string }[]
}

export function importRefusal(fileName: string, error: unknown): ImportRefusal {
  const issues = error instanceof ApiCallError ? error.issues : undefined
  return { fileName, message: apiMessage(error), ...(issues && issues.length > 0 ? { issues } : {}) }
}

/** Why a file was not imported: the file's problem, or each field with what to change. */
export function ImportError({ id, refusal }: { id: string; refusal: ImportRefusal }): ReactElement {
  const { fileName } = refusal
  const { summary, problems: listed } = importProblems(refusal.message)
  const problems = [
    ...listed,
    ...(refusal.issues ?? [])
      .filter((issue) => !listed.some((p) => p.field === issue.path))
      .map((issue): ImportProblem => (issue.path ? { field: issue.path, text: issue.message } : { text: issue.message }))
  ]
  return (
    <div id={id} className="banner banner-error presets-import-error" role="alert">
      <p>
        <strong>{fileName} was not imported.</strong> {summary}
      </p>
      {problems.length > 0 ? (
        <ul>
          {problems.map((problem, index) => (
            <li key={index}>
              {problem.field ? (
                <>
                  <code>{problem.field}</code>:{' '}
                </>
              ) : null}
              {problem.text}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
