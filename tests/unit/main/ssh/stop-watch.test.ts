import { describe, expect, it } from 'vitest'
import { tracked, watchForStop } from '../../../../src/main/ssh/stop-watch'

describe('watchForStop', () => {
  it('stops once on the timeout, and says so', async () => {
    const running = new Set<() => void>()
    let stops = 0
    const watch = watchForStop({ timeoutMs: 10 }, async () => void stops++, running)
    expect(running.size).toBe(1)
    await new Promise((r) => setTimeout(r, 40))
    await watch.stopped()
    expect(watch.reason).toBe('timeout')
    watch.dispose()
    expect(stops).toBe(1)
    expect(running.size).toBe(0)
  })

  it('stops on abort, also when the signal was aborted before, and only once', async () => {
    const aborted = new AbortController()
    aborted.abort()
    let stops = 0
    const early = watchForStop({ signal: aborted.signal, timeoutMs: 5 }, async () => void stops++, new Set())
    await new Promise((r) => setTimeout(r, 20))
    expect(early.reason).toBe('cancel')
    expect(stops).toBe(1)
    early.dispose()

    const later = new AbortController()
    const watch = watchForStop({ signal: later.signal }, async () => void stops++, new Set())
    expect(watch.reason).toBeUndefined()
    later.abort()
    await watch.stopped()
    expect(watch.reason).toBe('cancel')
    expect(stops).toBe(2)
  })

  it('does nothing when neither comes, and leaves nothing behind after dispose', async () => {
    const running = new Set<() => void>()
    const controller = new AbortController()
    const watch = watchForStop({ signal: controller.signal, timeoutMs: 10 }, async () => {
      throw new Error('must not stop')
    }, running)
    watch.dispose()
    controller.abort()
    await new Promise((r) => setTimeout(r, 30))
    expect(watch.reason).toBeUndefined()
    expect(running.size).toBe(0)
  })
})

describe('tracked', () => {
  it('keeps work in the set until it settles', async () => {
    const inFlight = new Set<Promise<unknown>>()
    const work = tracked(inFlight, new Promise((r) => setTimeout(() => r(7), 10)))
    expect(inFlight.size).toBe(1)
    await expect(work).resolves.toBe(7)
    expect(inFlight.size).toBe(0)
    await expect(tracked(inFlight, Promise.reject(new Error('x')))).rejects.toThrow('x')
    expect(inFlight.size).toBe(0)
  })
})
