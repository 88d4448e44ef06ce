import type { ReactElement } from 'react'
import type { Flag, FlagKind } from '../../../../shared/model/comparison'
import { FLAG_TITLE, flagExplanation } from './flag-text'

export { flagExplanation, FLAG_SHORT, FLAG_TITLE } from './flag-text'

const FLAG_PATHS: Record<FlagKind, string> = {
  'faster-than-baseline': 'M6 13l6-6 6 6M6 19l6-6 6 6',
  noisy: 'M3 12l3-5 3 10 3-10 3 10 3-10 3 5',
  'scenario-mismatch': 'M5 9h14M5 15h14M15 5 9 19',
  'bandwidth-cap': 'M4 5h16M12 20V9M8 13l4-4 4 4',
  missing: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM5.6 18.4 18.4 5.6',
  contaminated: 'M12 3v6M12 15v6M3 12h6M15 12h6',
  'baseline-virtual': 'M4 5h16v10H4zM9 19h6M12 15v4',
  'same-machine': 'M8 8h8v8H8zM4 4h8M4 4v8'
}

/** A flag's icon: a shape per kind, so flags are told apart without colour. */
export function FlagIcon({ kind, size = 14 }: { kind: FlagKind; size?: number }): ReactElement {
  return (
    <svg className="results-flag-icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true">
      <path d={FLAG_PATHS[kind]} fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

/** The explanation of one flag: why it matters and what to do, then what was seen. */
export function FlagExplanation({
  flag,
  subject,
  titled = true
}: {
  flag: Flag
  subject?: string
  /** Whether to start with the flag's title (not when a summary above already shows it). */
  titled?: boolean
}): ReactElement {
  return (
    <div className={`results-explanation results-explanation-${flag.kind}`}>
      {titled ? (
        <p className="results-explanation-title">
          <FlagIcon kind={flag.kind} />
          <strong>{FLAG_TITLE[flag.kind]}</strong>
          {subject ? <span className="muted"> · {subject}</span> : null}
        </p>
      ) : null}
      {flag.explanation ? <p>{flagExplanation(flag)}</p> : null}
      <p className="results-explanation-seen">
        <span className="results-explanation-label">What was seen: </span>
        {seenText(flag)}
      </p>
    </div>
  )
}

/** A flag outside the table (a whole variant's): its icon and short text, the explanation one click away. */
export function FlagDetails({ flag, subject }: { flag: Flag; subject?: string }): ReactElement {
  return (
    <details className={`results-flag-details results-flag-details-${flag.kind}`}>
      <summary>
        <FlagIcon kind={flag.kind} />
        <span>{FLAG_TITLE[flag.kind]}</span>
        {subject ? <span className="muted"> · {subject}</span> : null}
      </summary>
      <FlagExplanation flag={flag} titled={false} />
    </details>
  )
}

/** The flag's message without its explanation (shown above it already). */
function seenText(flag: Flag): string {
  if (!flag.explanation || !flag.message.endsWith(flag.explanation)) return flag.message
  return flag.message.slice(0, flag.message.length - flag.explanation.length).trim()
}
