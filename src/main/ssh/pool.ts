/**
 * Channel slots of one connection. OpenSSH allows MaxSessions (default 10) session channels per
 * connection and refuses more with "open failed"; commands beyond the limit wait here in order.
 * Control work (stopping a command) goes to the front of the queue and may use one slot more
 * than the limit, so a cancel is never stuck behind the commands it wants to stop.
 */

export type Release = () => void

interface Waiter {
  control: boolean
  grant: (release: Release) => void
  fail: (err: unknown) => void
}

export class AbortedWhileQueued extends Error {
  override readonly name = 'AbortedWhileQueued'
  constructor() {
    super('cancelled while waiting for a channel')
  }
}

export class ChannelPool {
  private open = 0
  private queue: Waiter[] = []
  private limit: number

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`the channel limit must be an integer >= 1, got ${limit}`)
    this.limit = limit
  }

  /** Channels open now (or being opened). */
  get inUse(): number {
    return this.open
  }

  get waiting(): number {
    return this.queue.length
  }

  get currentLimit(): number {
    return this.limit
  }

  /** Waits for a slot; the returned function gives it back (idempotent). */
  acquire(opts: { control?: boolean; signal?: AbortSignal } = {}): Promise<Release> {
    const control = opts.control ?? false
    if (opts.signal?.aborted) return Promise.reject(new AbortedWhileQueued())
    if (this.queue.length === 0 || control) {
      if (this.open < this.capacity(control)) return Promise.resolve(this.take())
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        control,
        grant: resolve,
        fail: reject
      }
      const onAbort = (): void => {
        const i = this.queue.indexOf(waiter)
        if (i !== -1) this.queue.splice(i, 1)
        reject(new AbortedWhileQueued())
      }
      waiter.grant = (release) => {
        opts.signal?.removeEventListener('abort', onAbort)
        resolve(release)
      }
      waiter.fail = (err) => {
        opts.signal?.removeEventListener('abort', onAbort)
        reject(err)
      }
      opts.signal?.addEventListener('abort', onAbort, { once: true })
      if (control) {
        const firstPlain = this.queue.findIndex((w) => !w.control)
        this.queue.splice(firstPlain === -1 ? this.queue.length : firstPlain, 0, waiter)
      } else {
        this.queue.push(waiter)
      }
    })
  }

  /**
   * The server refused a channel while `openNow` of ours were open (counting the refused one):
   * from now on at most `openNow - 1` channels are opened at once. Returns the new limit.
   */
  learnServerLimit(openNow: number): number {
    this.limit = Math.max(1, Math.min(this.limit, openNow - 1))
    return this.limit
  }

  /** Fails every waiter (the session is closing). */
  failAll(err: unknown): void {
    const waiters = this.queue
    this.queue = []
    for (const w of waiters) w.fail(err)
  }

  private capacity(control: boolean): number {
    return control ? this.limit + 1 : this.limit
  }

  private take(): Release {
    this.open++
    let released = false
    return () => {
      if (released) return
      released = true
      this.open--
      this.pump()
    }
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0] as Waiter
      if (this.open >= this.capacity(next.control)) return
      this.queue.shift()
      next.grant(this.take())
    }
  }
}
