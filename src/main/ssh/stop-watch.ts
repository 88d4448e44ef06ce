/** Why a running command was stopped by us, if it was. */
export type StopReason = 'timeout' | 'cancel'

export interface StopWatch {
  /** Set once the timeout fired or the signal aborted. */
  readonly reason: StopReason | undefined
  /** Resolves when the stop that was started (if any) has finished. */
  stopped(): Promise<void>
  /** Stops the command now (as if its signal aborted), unless a stop already began. */
  cancel(): void
  /** Removes the timer and the listeners; call when the command has ended. */
  dispose(): void
}

/**
 * Watches one running command for its timeout and its abort signal, and calls `stop` once, on
 * whichever comes first. `running` holds the cancel hooks of every running command, so closing a
 * session can stop them all.
 */
export function watchForStop(
  opts: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
  stop: () => Promise<void>,
  running: Set<() => void>
): StopWatch {
  let reason: StopReason | undefined
  let stopping: Promise<void> | undefined
  const trigger = (why: StopReason): void => {
    if (stopping) return
    reason = why
    stopping = stop()
  }
  const onAbort = (): void => trigger('cancel')
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  const timer = opts.timeoutMs !== undefined ? setTimeout(() => trigger('timeout'), opts.timeoutMs) : undefined
  running.add(onAbort)
  if (opts.signal?.aborted) trigger('cancel')
  return {
    get reason() {
      return reason
    },
    stopped: () => stopping ?? Promise.resolve(),
    cancel: onAbort,
    dispose: () => {
      if (timer) clearTimeout(timer)
      opts.signal?.removeEventListener('abort', onAbort)
      running.delete(onAbort)
    }
  }
}

/** Runs `work`, keeping it in `inFlight` until it settles (close() waits for them). */
export async function tracked<T>(inFlight: Set<Promise<unknown>>, work: Promise<T>): Promise<T> {
  inFlight.add(work)
  try {
    return await work
  } finally {
    inFlight.delete(work)
  }
}
