/** A sweep's status from its steps, its lock and its record's stoppedAt: a user's stop reads cancelled, a dead process interrupted. */
import { describe, expect, it } from 'vitest'
import { sweepStatus } from '../../../../src/main/store/run-store'

const done = { status: 'completed' as const }

describe('sweepStatus', () => {
  it('is running while the process in its lock lives', () => {
    expect(sweepStatus(4, [done], String(process.pid))).toBe('running')
  })

  it('is completed when every step completed, stopped or not', () => {
    expect(sweepStatus(2, [done, done], '')).toBe('completed')
    expect(sweepStatus(2, [done, done], '', '2026-11-26T19:00:00.000Z')).toBe('completed')
  })

  it('is cancelled when the user stopped it between steps', () => {
    expect(sweepStatus(4, [done], '', '2026-11-26T19:00:00.000Z')).toBe('cancelled')
  })

  it('is interrupted when its process died between steps (no stop recorded, no live lock)', () => {
    expect(sweepStatus(4, [done], '')).toBe('interrupted')
    // a lock left by a process that is gone (pid far beyond pid_max)
    expect(sweepStatus(4, [done], '999999999')).toBe('interrupted')
  })

  it('takes the status of the step that ended it', () => {
    expect(sweepStatus(4, [done, { status: 'failed' }], '', '2026-11-26T19:00:00.000Z')).toBe('failed')
    expect(sweepStatus(4, [done, { status: 'cancelled' }], '')).toBe('cancelled')
  })
})
