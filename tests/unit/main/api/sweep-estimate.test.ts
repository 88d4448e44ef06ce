import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { domainToRead, estimateSweep, RESTART_SECONDS, type DomainNow } from '../../../../src/main/api/sweep-estimate'
import type { SweepEstimate } from '../../../../src/shared/scenario-contract'

// the lab guest with a virtio balloon, at most 4 vCPUs of which 2 are on, 1 GiB of which 512 MiB are in use (as domain-edit.test.ts)
const LAB = readFileSync(path.join(__dirname, '../scenario/fixtures/lab-domain-transient.xml'), 'utf8')
const HOT = LAB.replace("<memballoon model='none'/>", "<memballoon model='virtio'/>")
  .replace("<vcpu placement='static'>2</vcpu>", "<vcpu placement='static' current='2'>4</vcpu>")
  .replace("<memory unit='KiB'>524288</memory>", "<memory unit='KiB'>1048576</memory>")

const plan = (sweep: Record<string, unknown>, repetitions = 2) => ({
  name: 'sweep',
  baseline: { target: 'phys' },
  variants: [],
  tests: [{ pack: 'block-dd', form: 'quick' }],
  repetitions,
  sweep: { target: 'vm', domain: 'vb-lab-sw1', ...sweep }
})

const running: DomainNow = { domain: 'vb-lab-sw1', xml: HOT, running: true }

function ok(estimate: SweepEstimate): Extract<SweepEstimate, { ok: true }> {
  if (!estimate.ok) throw new Error(`not estimated: ${JSON.stringify(estimate.issues)}`)
  return estimate
}

/** The time is the steps' runs plus the restarts counted, nothing else. */
function expectTotal(e: Extract<SweepEstimate, { ok: true }>): void {
  expect(e.seconds).toBe(e.steps.reduce((sum, s) => sum + s.seconds, 0) + e.restarts * RESTART_SECONDS)
}

describe('the time of a sweep: which steps restart the guest', () => {
  it('counts no restart for vCPUs within the maximum on a running guest: the first step is the domain as it is, the next applied live, the restore live', () => {
    const e = ok(estimateSweep(plan({ factors: { vcpus: [2, 4] } }), running))
    expect(e.restartsFrom).toBe('domain')
    expect(e.steps.map((s) => [s.label, s.change, s.live])).toEqual([
      ['vcpus=2', 'none', undefined],
      ['vcpus=4', 'live', ['vCPUs: 2 -> 4, applied live, no restart']]
    ])
    expect(e.restore).toBe('live')
    expect(e.restarts).toBe(0)
    expectTotal(e)
    // the same plan told from the plan alone: every step and the restore a restart, three more restarts' time
    const plain = ok(estimateSweep(plan({ factors: { vcpus: [2, 4] } })))
    expect(plain.restartsFrom).toBe('plan')
    expect(plain.steps.map((s) => s.change)).toEqual(['restart', 'restart'])
    expect(plain.restarts).toBe(3)
    expect(plain.seconds - e.seconds).toBe(3 * RESTART_SECONDS)
    expect(plain).not.toHaveProperty('domainNote')
  })

  it('restarts for what libvirt takes only at the next boot: an io change, vCPUs beyond the maximum, memory beyond <memory>, a domain that is off', () => {
    // io x vCPUs (the domain has io=threads): each io change restarts, the vCPU change after it in the same io mode is
    // live, and the restore from the last step (threads, 4 vCPUs) is live too
    const e = ok(estimateSweep(plan({ factors: { io: ['io_uring', 'threads'], vcpus: [2, 4] } }), running))
    expect(e.steps.map((s) => [s.label, s.change])).toEqual([
      ['io=io_uring, vcpus=2', 'restart'],
      ['io=io_uring, vcpus=4', 'live'],
      ['io=threads, vcpus=2', 'restart'],
      ['io=threads, vcpus=4', 'live']
    ])
    expect(e.restore).toBe('live')
    expect(e.restarts).toBe(2)
    expectTotal(e)

    const beyond = ok(estimateSweep(plan({ factors: { vcpus: [2, 8] } }), running))
    expect(beyond.steps.map((s) => s.change)).toEqual(['none', 'restart'])
    expect(beyond.restore).toBe('restart')
    const memory = ok(estimateSweep(plan({ factors: { memoryMiB: [768, 2048] } }), running))
    expect(memory.steps.map((s) => s.change)).toEqual(['live', 'restart'])
    expect(memory.steps[0]!.live).toEqual(['currentMemory: 524288 -> 768 MiB, applied live, no restart'])

    // a domain that is off is started for its first change; after that it runs, and the restore is live
    const off = ok(estimateSweep(plan({ factors: { vcpus: [4, 3] } }), { ...running, running: false }))
    expect(off.steps.map((s) => s.change)).toEqual(['restart', 'live'])
    expect(off.restore).toBe('live')
    expect(off.restarts).toBe(1)
  })

  it('follows the order the steps run in: interleaved rounds change the domain back and forth', () => {
    const e = ok(estimateSweep(plan({ factors: { vcpus: [2, 4] }, order: 'interleaved' }, 2), running))
    expect(e.steps.map((s) => `${s.label} ${s.change}`)).toEqual(['vcpus=2 none', 'vcpus=4 live', 'vcpus=2 live', 'vcpus=4 live'])
    expect(e.restarts).toBe(0)
    expect(e.steps.every((s) => s.jobs === e.steps[0]!.jobs)).toBe(true)
  })

  it('counts every step a restart, and says why, when the domain could not be read or cannot take a combination', () => {
    const unread = ok(estimateSweep(plan({ factors: { vcpus: [2, 4] } }), { note: 'phys could not be reached to ask libvirt: connect ECONNREFUSED 127.0.0.1:1. Test the connection on the Targets screen.' }))
    expect(unread.restartsFrom).toBe('plan')
    expect(unread.restarts).toBe(3)
    expect(unread.domainNote).toBe('phys could not be reached to ask libvirt: connect ECONNREFUSED 127.0.0.1:1. Test the connection on the Targets screen.')
    // queues=4 is more than the 2 vCPUs of the first step: the sweep would stop before its first change
    const refused = ok(estimateSweep(plan({ factors: { queues: [4], vcpus: [2, 4] } }), running))
    expect(refused.restartsFrom).toBe('plan')
    expect(refused.restarts).toBe(3)
    expect(refused.domainNote).toBe("vb-lab-sw1 cannot take every combination (the review's domain changes say which)")
    expectTotal(refused)
  })
})

describe('the domain read for the estimate', () => {
  it('is read only when a factor may be applied live (vCPUs, memory) and the plan is valid', () => {
    expect(domainToRead(plan({ factors: { cache: ['none'], vcpus: [1, 2] } }))).toEqual({ guest: 'vm', baseline: 'phys', domain: 'vb-lab-sw1' })
    expect(domainToRead(plan({ factors: { memoryMiB: [512, 1024] } }))).toEqual({ guest: 'vm', baseline: 'phys', domain: 'vb-lab-sw1' })
    expect(domainToRead(plan({ factors: { cache: ['none', 'writeback'], queues: [1, 2] } }))).toBeUndefined()
    expect(domainToRead(plan({ factors: { vcpus: [0] } }))).toBeUndefined()
    expect(domainToRead({ ...plan({ factors: { vcpus: [2] } }), sweep: undefined })).toBeUndefined()
  })
})
