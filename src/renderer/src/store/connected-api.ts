import type { VirtbenchApi } from '../../../shared/contract'

export const NOT_CONNECTED = 'Not connected to VirtBench yet; wait for the connection and try again.'

/** The store's API once the connection is made; before that, an error that says to wait. */
export function connectedApi(state: { api?: VirtbenchApi | undefined }): VirtbenchApi {
  if (!state.api) throw new Error(NOT_CONNECTED)
  return state.api
}
