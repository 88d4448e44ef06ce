import { ApiCallError } from '../../../shared/contract'

/** The API's message without the `channel: ` prefix ApiCallError puts in front of it, for a person to read. */
export function apiMessage(error: unknown): string {
  if (error instanceof ApiCallError) return error.message.replace(/^[a-z]+:[A-Za-z]+: /, '')
  return error instanceof Error ? error.message : String(error)
}
