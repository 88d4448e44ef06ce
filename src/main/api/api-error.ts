import type { ApiErrorCode } from '../../shared/contract'

/** A failure a handler means to report to the renderer as it is, with a code it can act on. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    /** Field-level problems, for `invalid-request`: the request path and what is wrong there. */
    readonly issues?: { path: string; message: string }[]
  ) {
    super(message)
    this.name = 'ApiError'
  }
}
