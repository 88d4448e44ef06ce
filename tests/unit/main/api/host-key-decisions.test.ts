import { describe, expect, it } from 'vitest'
import { HostKeyDecisions } from '../../../../src/main/api/host-key-decisions'
import type { HostKeyQuestion } from '../../../../src/shared/targets-contract'

const question = { targetName: 'kvm-host', host: '10.0.0.5', port: 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:abc' }

describe('HostKeyDecisions', () => {
  it('publishes each question with its own id and waits for the answer to that id', async () => {
    const asked: HostKeyQuestion[] = []
    const decisions = new HostKeyDecisions((q) => asked.push(q))
    const first = decisions.ask(question)
    const second = decisions.ask({ ...question, host: '10.0.0.6' })
    expect(asked).toHaveLength(2)
    expect(asked[0]!.requestId).not.toBe(asked[1]!.requestId)
    expect(asked[0]).toMatchObject(question)

    expect(decisions.decide(asked[1]!.requestId, 'accept-once')).toBe(true)
    expect(decisions.decide(asked[0]!.requestId, 'accept-and-remember')).toBe(true)
    await expect(first).resolves.toBe('accept-and-remember')
    await expect(second).resolves.toBe('accept-once')
    expect(decisions.decide(asked[0]!.requestId, 'reject')).toBe(false)
  })

  it('rejects a question nobody answers in time, never accepting by default', async () => {
    const decisions = new HostKeyDecisions(() => {}, 20)
    await expect(decisions.ask(question)).resolves.toBe('reject')
  })

  it('rejects everything still waiting when asked to', async () => {
    const decisions = new HostKeyDecisions(() => {})
    const waiting = [decisions.ask(question), decisions.ask(question)]
    decisions.rejectAll()
    await expect(Promise.all(waiting)).resolves.toEqual(['reject', 'reject'])
  })

  it('ignores an answer to a question that was never asked', () => {
    expect(new HostKeyDecisions(() => {}).decide('nope', 'accept-once')).toBe(false)
  })
})
