import { isInvokeChannel, type InvokeChannel } from '../../shared/channels'
import {
  describeZodError,
  invokeContract,
  type Envelope,
  type InvokeRequest,
  type InvokeResponse
} from '../../shared/contract'
import { wasChecked } from '../../shared/checked-values'
import { ApiError } from './api-error'

export type Handler<C extends InvokeChannel> = (
  request: InvokeRequest<C>
) => Promise<InvokeResponse<C>> | InvokeResponse<C>

export type Handlers = { [C in InvokeChannel]: Handler<C> }

/**
 * The single entry point for every invoke, whatever the transport: checks the channel, validates
 * the payload, runs the handler, validates the answer, and wraps it all in an envelope. Nothing a
 * renderer sends reaches a handler unchecked.
 */
export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  payload: unknown
): Promise<Envelope<unknown>> {
  if (!isInvokeChannel(channel)) {
    return fail('unknown-channel', `There is no API channel named ${JSON.stringify(channel)}.`)
  }
  const contract = invokeContract[channel]
  const request = contract.request.safeParse(payload)
  if (!request.success) {
    const issues = describeZodError(request.error)
    return {
      ok: false,
      error: {
        code: 'invalid-request',
        message: `Invalid request for ${channel}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues
      }
    }
  }
  let value: unknown
  try {
    const handler = handlers[channel] as (request: unknown) => unknown
    value = await handler(request.data)
  } catch (error) {
    if (error instanceof ApiError) {
      const failure = fail(error.code, error.message)
      if (error.issues?.length && !failure.ok) failure.error.issues = error.issues
      return failure
    }
    return fail('failed', `${channel} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  // a document the store checked when it read it, frozen since (a run VirtBench did not change)
  if (wasChecked(value, contract.response)) return { ok: true, value }
  const response = contract.response.safeParse(value)
  if (!response.success) {
    const issues = describeZodError(response.error)
    return fail(
      'invalid-response',
      `${channel} produced an answer that breaks the contract (${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}). This is a bug in VirtBench.`
    )
  }
  return { ok: true, value: response.data }
}

function fail(code: ApiError['code'], message: string): Envelope<never> {
  return { ok: false, error: { code, message } }
}
