import { describe, expect, it } from 'vitest'
import { AbortedWhileQueued, ChannelPool, type Release } from '../../../../src/main/ssh/pool'

const tick = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('ChannelPool', () => {
  it('hands out at most `limit` slots and serves waiters in order', async () => {
    const pool = new ChannelPool(2)
    const a = await pool.acquire()
    const b = await pool.acquire()
    const order: string[] = []
    const c = pool.acquire().then((r) => (order.push('c'), r))
    const d = pool.acquire().then((r) => (order.push('d'), r))
    await tick()
    expect(pool.inUse).toBe(2)
    expect(pool.waiting).toBe(2)
    expect(order).toEqual([])
    a()
    await tick()
    expect(order).toEqual(['c'])
    b()
    await tick()
    expect(order).toEqual(['c', 'd'])
    ;(await c)()
    ;(await d)()
    expect(pool.inUse).toBe(0)
  })

  it('gives a slot back only once, however often release is called', async () => {
    const pool = new ChannelPool(1)
    const a = await pool.acquire()
    a()
    a()
    expect(pool.inUse).toBe(0)
    const b = await pool.acquire()
    expect(pool.inUse).toBe(1)
    b()
  })

  it('lets control work jump the queue and use one slot beyond the limit', async () => {
    const pool = new ChannelPool(1)
    const busy = await pool.acquire()
    const plain = pool.acquire()
    const control = await pool.acquire({ control: true })
    expect(pool.inUse).toBe(2)
    // a second control request waits, but ahead of the plain one
    const order: string[] = []
    void plain.then((r) => (order.push('plain'), r()))
    const control2 = pool.acquire({ control: true }).then((r) => (order.push('control2'), r))
    await tick()
    expect(order).toEqual([])
    control()
    await tick()
    expect(order).toEqual(['control2'])
    ;(await control2)()
    busy()
    await tick()
    expect(order).toEqual(['control2', 'plain'])
  })

  it('drops a waiter whose signal aborts, and refuses an aborted signal at once', async () => {
    const pool = new ChannelPool(1)
    const busy = await pool.acquire()
    const ac = new AbortController()
    const waiting = pool.acquire({ signal: ac.signal })
    ac.abort()
    await expect(waiting).rejects.toBeInstanceOf(AbortedWhileQueued)
    expect(pool.waiting).toBe(0)
    await expect(pool.acquire({ signal: ac.signal })).rejects.toBeInstanceOf(AbortedWhileQueued)
    busy()
    expect(pool.inUse).toBe(0)
  })

  it('learns a lower limit from a server refusal', async () => {
    const pool = new ChannelPool(8)
    const held: Release[] = []
    for (let i = 0; i < 3; i++) held.push(await pool.acquire())
    // the third channel was refused by the server: two fit
    expect(pool.learnServerLimit(3)).toBe(2)
    expect(pool.currentLimit).toBe(2)
    held.pop()?.()
    const next = pool.acquire()
    let granted = false
    void next.then(() => (granted = true))
    await tick()
    expect(granted).toBe(false)
    held.pop()?.()
    await tick()
    expect(granted).toBe(true)
    // never below one
    expect(pool.learnServerLimit(1)).toBe(1)
  })

  it('fails every waiter when the session closes', async () => {
    const pool = new ChannelPool(1)
    await pool.acquire()
    const w1 = pool.acquire()
    const w2 = pool.acquire({ control: true })
    const w3 = pool.acquire({ control: true })
    pool.failAll(new Error('closed'))
    await expect(w1).rejects.toThrow('closed')
    await expect(w3).rejects.toThrow('closed')
    // w2 got the extra control slot right away
    await expect(w2).resolves.toBeTypeOf('function')
  })

  it('refuses a limit below one', () => {
    expect(() => new ChannelPool(0)).toThrow(/>= 1/)
    expect(() => new ChannelPool(2.5)).toThrow(/>= 1/)
  })
})
