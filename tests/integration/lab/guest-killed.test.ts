/**
 * A real guest dies in the middle of a job: its qemu process is killed (SIGKILL, by PID) while
 * `virtbench run` has a job running on it. That job fails with an error naming the guest, the
 * physical host's jobs still run, the run goes to its end, and nothing already measured is lost.
 *
 * A job whose target drops its connection waits for it to come back (a guest that reboots, a
 * network blip): 10 minutes by default. The run here says `--reconnect-wait 3`, as an admin
 * would in CI, so the test does not sit out the default.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { guestRunning, readGuestRecord, startGuest, type Guest } from '../../../lab/driver'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import type { SshdServer } from '../../harness/sshd'
import { BOOT_TIMEOUT_MS, BUILD_TIMEOUT_MS, openLab, saveTargets, virtbenchRun, writePreset, type LabContext } from './lab-fixture'

/** Seconds a guest frozen during its boot is given to answer SSH: the kernel must have spoken by then, even on a loaded machine. */
const HUNG_GUEST_TIMEOUT_S = 60
/** A line of the kernel on the serial console. */
const KERNEL_SPEAKS = /Linux version|Probing EDD|\[ +\d+\.\d+\]/

describe('a guest killed in the middle of a job', () => {
  let lab: LabContext
  let host: SshdServer
  let guest: Guest

  beforeAll(async () => {
    lab = await openLab('kill')
    ;[host, [guest]] = await Promise.all([lab.physicalHost(), lab.boot([{ name: 'victim' }])])
  }, BUILD_TIMEOUT_MS + BOOT_TIMEOUT_MS)

  afterAll(async () => {
    await lab?.stop()
  }, 60_000)

  // The two tests run at once (each with a guest of its own): the second mostly waits out its
  // guest's SSH timeout, which the first one's run covers
  it.concurrent('fails that job naming the guest, runs the rest of the run, and keeps what was measured', async ({ expect }) => {
    saveTargets(lab, [
      { name: 'phys', port: host.port, role: 'host' },
      { name: 'victim', port: guest.sshPort, role: 'guest' }
    ])
    // two tests, two repetitions, interleaved: phys#1 victim#1 phys#2 victim#2 per test; the
    // fio write runs 6 s, long enough to kill the guest under it
    const preset = writePreset(lab, 'kill', {
      baseline: { target: 'phys' },
      variants: [{ target: 'victim' }],
      tests: [
        { id: 'fio-write', tool: 'fio', params: { rw: 'write', bs: '64k', size: '16m', runtime: 6, timeBased: true, direct: true, ioengine: 'psync' } },
        { id: 'dd-small', tool: 'dd', params: { mode: 'write', blockSize: '1M', count: '4', direct: true } }
      ],
      repetitions: 2,
      storage: { kind: 'directory', path: '~/virtbench-work' }
    })
    const out = path.join(lab.dir, 'run')
    let okBeforeKill: number | undefined
    const result = await virtbenchRun(
      [preset, '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys', '--reconnect-wait', '3'],
      (stdout) => {
        // the progress line of the guest's first job: let it get under way there, then pull the plug
        if (okBeforeKill !== undefined || !/\] .* on victim #1 started/.test(stdout)) return
        okBeforeKill = (stdout.match(/ ok \(\d+ values\)/g) ?? []).length
        setTimeout(() => void guest.kill(), 2000)
      }
    )
    expect(okBeforeKill, result.stdout).toBe(1)
    expect(guestRunning(guest)).toBe(false)
    expect(result.status, result.stdout + result.stderr).toBe(1)
    expect(result.stdout).toMatch(/on victim #1 connection lost; reattaching/)
    expect(result.stdout).toMatch(/^failed: .* on victim \(repetition 1\): victim is gone: the connection dropped while a job ran/m)
    expect(result.stdout).toContain('Run failed: 4 of 8 jobs succeeded.')

    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    // the run went to its end: every job has an outcome, none is left queued or running
    expect(run.status).toBe('failed')
    expect(run.jobs.every((j) => j.status === 'succeeded' || j.status === 'failed')).toBe(true)
    const victim = run.jobs.filter((j) => j.target === 'victim')
    const phys = run.jobs.filter((j) => j.target === 'phys')
    // the job that was running when the guest died failed, with an error that names the guest
    const killedJob = victim.find((j) => j.testId === 'fio-write' && j.repetition === 1)!
    expect(killedJob).toMatchObject({ status: 'failed', samples: [] })
    expect(killedJob.error).toMatch(/^victim is gone: the connection dropped while a job ran/)
    // and so does every later job on the dead guest
    for (const job of victim) {
      expect(job.status).toBe('failed')
      expect(job.error).toMatch(/victim/)
    }
    // the rest of the run was measured on the physical host, with its samples; the first of them
    // finished before the guest died and is still there
    expect(phys).toHaveLength(4)
    for (const job of phys) {
      expect(job.status, `${job.testId} #${job.repetition}: ${job.error ?? ''}`).toBe('succeeded')
      expect(job.samples.length).toBeGreaterThan(0)
    }
    expect(phys[0]!.samples.some((s) => s.metric === 'fio.write.bandwidth' && s.value > 0)).toBe(true)
    // with the raw output it was parsed from, next to it
    const measured = phys[0]!.steps.find((st) => st.measured)
    expect(readFileSync(path.join(out, measured!.stdoutFile!), 'utf8')).toContain('"jobs"')
  }, 600_000)

  it.concurrent('a guest that does not answer SSH within its timeout is stopped, and the error shows its serial console', async ({ expect }) => {
    const dir = path.join(lab.stateDir, 'too-slow')
    // The guest hangs once its kernel has spoken on the serial console (it is frozen with SIGSTOP):
    // from then on it cannot answer SSH, however fast or loaded this machine is, and its console
    // says no more. The timeout only has to leave the kernel time to start talking.
    let settled = false
    const starting = startGuest({ name: 'too-slow', bootTimeoutSeconds: HUNG_GUEST_TIMEOUT_S, stateDir: lab.stateDir, stopOnExit: true })
      .then(
        () => undefined,
        (e: unknown) => e as Error
      )
      .finally(() => (settled = true))
    const serial = await freezeOnceKernelSpeaks('too-slow', lab.stateDir, () => settled)
    const error = await starting
    expect(serial, 'the kernel said nothing on the serial console before the guest timed out').toBeDefined()
    expect(error?.message).toMatch(
      new RegExp(`^lab guest too-slow did not answer SSH on 127\\.0\\.0\\.1:\\d+ within ${HUNG_GUEST_TIMEOUT_S} s; it was stopped\\. The end of its serial console:\\n`)
    )
    // the end of the console exactly as qemu wrote it, the kernel's lines among it
    const shown = error!.message.slice(error!.message.indexOf('serial console:\n') + 'serial console:\n'.length)
    expect(shown).toBe(serial!.replace(/\r/g, '').split('\n').slice(-40).join('\n'))
    expect(shown).toMatch(KERNEL_SPEAKS)
    // no qemu of that guest is left, and its folder is gone
    expect(processesUsing(dir)).toEqual([])
    expect(existsSync(dir)).toBe(false)
  }, (HUNG_GUEST_TIMEOUT_S + 60) * 1000)
})

/**
 * Waits (until `gaveUp()`) for the guest's qemu to be running and its kernel to have written to
 * the serial console, then freezes qemu with SIGSTOP and returns the console as it stays.
 */
async function freezeOnceKernelSpeaks(name: string, stateDir: string, gaveUp: () => boolean): Promise<string | undefined> {
  while (!gaveUp()) {
    const record = readGuestRecord(name, stateDir)
    if (record && guestRunning(record) && KERNEL_SPEAKS.test(readIfThere(record.serialLog))) {
      process.kill(record.pid, 'SIGSTOP')
      // stopped ("T"): no thread of qemu writes to the console any more
      const deadline = Date.now() + 30_000
      while (!/^\d+ \(.*\) T /.test(readIfThere(`/proc/${record.pid}/stat`))) {
        if (Date.now() > deadline) throw new Error(`qemu (PID ${record.pid}) did not stop within 30 s of SIGSTOP`)
        await sleep(20)
      }
      return readIfThere(record.serialLog)
    }
    await sleep(100)
  }
  return undefined
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/** PIDs of running processes whose command line mentions `text`. */
function processesUsing(text: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)
      } catch {
        return false
      }
    })
    .map(Number)
}
