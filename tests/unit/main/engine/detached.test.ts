import { describe, expect, it } from 'vitest'
import { countersOf, diskNote, parseStatusLine, statusProblem, type DetachedResult } from '../../../../src/main/engine/detached'

const nonce = 'VBJOB-0123456789abcdef'
const result = (over: Partial<DetachedResult>): DetachedResult => ({ status: 0, reattached: 0, interruptions: [], ...over })

describe("job.sh's status line (the first line of a wait, so no output can hide it)", () => {
  it('reads an exit code and the output sizes; free space only follows a status other than 0', () => {
    expect(parseStatusLine(`${nonce} 0 123 45`, nonce)).toEqual({ status: 0, stdoutBytes: 123, stderrBytes: 45 })
    expect(parseStatusLine(`${nonce} 1 0 80 2480 /srv/bench disk`, nonce)).toEqual({
      status: 1,
      stdoutBytes: 0,
      stderrBytes: 80,
      space: { freeKiB: 2480, mount: '/srv/bench disk' }
    })
  })

  it('reads a status written on a full disk, with the exit code its file name kept', () => {
    expect(parseStatusLine(`${nonce} unwritable:1 0 0 0 /mnt/small`, nonce)).toEqual({
      status: 'unwritable',
      unwrittenStatus: 1,
      stdoutBytes: 0,
      stderrBytes: 0,
      space: { freeKiB: 0, mount: '/mnt/small' }
    })
    expect(parseStatusLine(`${nonce} unwritable 5 0 0 /mnt/small`, nonce)).toMatchObject({ status: 'unwritable', stdoutBytes: 5 })
    expect(parseStatusLine(`${nonce} unwritable:timeout 5 0 0 /`, nonce)).toMatchObject({ status: 'unwritable', unwrittenStatus: 'timeout' })
  })

  it('reads timeout and lost, and leaves out free space df could not tell', () => {
    expect(parseStatusLine(`${nonce} timeout 0 0 - -`, nonce)).toEqual({ status: 'timeout', stdoutBytes: 0, stderrBytes: 0 })
    expect(parseStatusLine(`${nonce} lost 10 0 99 /`, nonce)).toMatchObject({ status: 'lost', space: { freeKiB: 99, mount: '/' } })
  })

  it("refuses a line that is not job.sh's: another nonce, a word it does not write, a job's own output", () => {
    expect(parseStatusLine(`VBJOB-ffffffffffffffff 0 1 1`, nonce)).toBeUndefined()
    expect(parseStatusLine(`${nonce} maybe 1 1`, nonce)).toBeUndefined()
    expect(parseStatusLine('fio-3.33', nonce)).toBeUndefined()
    expect(parseStatusLine(`${nonce} 1234 1 1`, nonce)).toBeUndefined()
  })
})

describe("job.sh's counters line (the last of a wait's stderr)", () => {
  const line = `${nonce}+cpu  10 0 5 100 0 0 0 0 0 0;0.50 0.40 0.30 1/200 300;2|cpu  60 0 7 150 0 0 0 0 0 0;0.60 0.40 0.30 1/201 310;2|0m0.10s 0m0.02s;0m0.45s 0m0.03s\n`

  it('gives each file its lines back, after whatever the job printed last without a newline', () => {
    expect(countersOf(`no newline${line}`, nonce)).toEqual({
      before: 'cpu  10 0 5 100 0 0 0 0 0 0\n0.50 0.40 0.30 1/200 300\n2',
      after: 'cpu  60 0 7 150 0 0 0 0 0 0\n0.60 0.40 0.30 1/201 310\n2',
      times: '0m0.10s 0m0.02s\n0m0.45s 0m0.03s'
    })
  })

  it("is not read from another job's nonce, nor from a line that is cut short", () => {
    expect(countersOf(line.replace(nonce, 'VBJOB-ffffffffffffffff'), nonce)).toBeUndefined()
    expect(countersOf(`${nonce}+cpu 1 2 3 4;0.1 0.1 0.1 1/1 1;1`, nonce)).toBeUndefined()
  })
})

describe('what a step that ended without an exit code is told', () => {
  it('names who stopped it at its limit', () => {
    expect(statusProblem(result({ status: 'timeout', stoppedBy: 'target' }), 64, 'guest')).toBe('stopped after its limit of 64 s')
    expect(statusProblem(result({ status: 'timeout', stoppedBy: 'engine' }), 64, 'guest')).toBe(
      'stopped after its limit of 64 s: guest did not report its end in time, so VirtBench stopped it'
    )
    expect(statusProblem(result({ status: 3 }), 64, 'guest')).toBeUndefined()
  })

  it('says a full disk, where, and what to do', () => {
    const full = result({ status: 'unwritable', unwrittenStatus: 1, space: { freeKiB: 0, mount: '/mnt/small' } })
    expect(statusProblem(full, 64, 'guest')).toBe('ended, but its exit status could not be written (it exited with 1)')
    expect(diskNote(full, 'guest', '/mnt/small/vb-r1-guest/.jobs/j0001-a1-write')).toBe(
      ". The target's disk is full: /mnt/small on guest has 0 KiB free (the job's folder is /mnt/small/vb-r1-guest/.jobs/j0001-a1-write). " +
        'Free space there, or choose a storage directory with room in the plan, then resume the run.'
    )
  })

  it('adds the full disk to any failure that met one, and asks about the disk when an unwritable status had room', () => {
    expect(diskNote(result({ status: 1, space: { freeKiB: 0, mount: '/' } }), 'host', '/d')).toMatch(/^\. The target's disk is full: \/ on host/)
    expect(diskNote(result({ status: 1, space: { freeKiB: 3, mount: '/' } }), 'host', '/d')).toMatch(/^\. The target's disk is full: \/ on host has 3 KiB free/)
    expect(diskNote(result({ status: 1, space: { freeKiB: 2048, mount: '/' } }), 'host', '/d')).toBe('')
    expect(diskNote(result({ status: 'unwritable', space: { freeKiB: 5120, mount: '/srv' } }), 'host', '/d')).toBe(
      '. Its folder /d on host is on /srv, with 5120 KiB free: was that disk full when it ended? Make room there, then resume the run.'
    )
  })
})
