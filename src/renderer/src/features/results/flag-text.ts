import { FLAG_TITLES } from '../../../../shared/compare/flags'
import type { Flag, FlagKind } from '../../../../shared/model/comparison'

/** The few words beside a flag's icon, in a table cell. */
export const FLAG_SHORT: Record<FlagKind, string> = {
  'faster-than-baseline': 'too fast?',
  noisy: 'noisy',
  'scenario-mismatch': 'setup differs',
  'bandwidth-cap': 'capped?',
  missing: 'missing',
  contaminated: 'disturbed',
  'baseline-virtual': 'virtual baseline',
  'same-machine': 'same machine'
}

/** A heading for a flag's explanation: the comparison's own titles (src/shared/compare/flags.ts). */
export const FLAG_TITLE: Readonly<Record<FlagKind, string>> = FLAG_TITLES

/**
 * Why a flag matters and what to do: the explanation the comparison wrote for the flag's row
 * (its category, the variant's disk cache), the same words the CLI and the PDF show.
 */
export function flagExplanation(flag: Flag): string {
  return flag.explanation ?? ''
}

/** A flag's message without the explanation it ends with, for a list under that explanation. */
export function flagFinding(flag: Flag): string {
  const explanation = flag.explanation
  if (!explanation || !flag.message.endsWith(explanation) || flag.message.length === explanation.length) return flag.message
  return flag.message.slice(0, -explanation.length).trimEnd()
}
