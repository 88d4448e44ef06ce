import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRun } from '../../../src/main/engine/start-run'
import { readRun } from '../../../src/main/store/run-store'
import { TOOLS } from '../../../src/main/tools/registry'
import { compare } from '../../../src/shared/compare'
import { ComparisonPlanSchema, type ComparisonPlanInput } from '../../../src/shared/model/plan'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { pgrep, waitFor } from '../ssh/session-helpers'
import { startLab, type Lab } from './run-harness'


describe('the engine against two real sshd (baseline and guest)', () => {
  let lab: Lab

  beforeAll(async () => {
    lab = await startLab()
  })

  afterAll(async () => {
    await lab?.stop()
  })

  const planOf = (input: Partial<ComparisonPlanInput>) =>
    ComparisonPlanSchema.parse({
      name: 'loopback',
      baseline: { target: 'host' },
      variants: [{ target: 'guest', label: 'guest (cache=none)', scenario: { hypervisor: 'kvm', cache: 'none' } }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      tests: [],
      ...input
    })

  it('runs fio, dd, ping and iperf3 end to end: a run document with raw outputs, samples and an overhead table', async () => {
    const plan = planOf({
      tests: [
        { id: 'fio-randread', tool: 'fio', params: { name: 'randread', rw: 'randread', bs: '4k', size: '16m', runtime: 1, timeBased: true, ioengine: 'psync', direct: false } },
        { pack: 'block-dd', form: 'quick', only: ['dd-latency'] },
        { id: 'ping', tool: 'ping', params: { count: 3, intervalSeconds: 0.2 } },
        { id: 'iperf3', tool: 'iperf3', params: { seconds: 1 } }
      ],
      repetitions: 2
    })
    const runDir = path.join(lab.dir, 'run-e2e')
    const started = await startRun(plan, runDir, lab.services())
    expect(await started.done).toBe('completed')

    const run = await readRun(runDir)
    expect(run.status).toBe('completed')
    expect(run.jobs).toHaveLength(4 * 2 * 2)
    expect(run.jobs.map((j) => `${j.testId}/${j.side}/${j.repetition}`).slice(0, 4)).toEqual([
      'fio-randread/host/1',
      'fio-randread/guest (cache=none)/1',
      'fio-randread/host/2',
      'fio-randread/guest (cache=none)/2'
    ])
    for (const job of run.jobs) {
      expect(job.status, `${job.id} ${job.error ?? ''}`).toBe('succeeded')
      const measured = job.steps.find((s) => s.measured)!
      expect(measured.exitCode).toBe(0)
      // the raw output kept beside the document parses to exactly the samples recorded
      const stdout = readFileSync(path.join(runDir, measured.stdoutFile!), 'utf8')
      const stderr = readFileSync(path.join(runDir, measured.stderrFile!), 'utf8')
      const tool = TOOLS[job.tool]
      const again = tool.parse({ stdout, stderr, exitCode: 0 }, tool.params.parse(job.params))
      expect(again.ok).toBe(true)
      if (again.ok) {
        expect(job.samples.map((s) => ({ ...s, labels: { ...s.labels, repetition: undefined } }))).toEqual(
          again.samples.map((s) => ({ ...s, labels: { ...s.labels, repetition: undefined } }))
        )
      }
    }
    // the host monitor sampled the block layer while each storage test ran, raw output kept
    const fioJob = run.jobs.find((j) => j.testId === 'fio-randread')!
    expect(fioJob.monitor?.length).toBeGreaterThan(0)
    expect(fioJob.monitor!.every((m) => m.target === 'host' && m.seconds > 0 && m.busyPct >= 0)).toBe(true)
    expect(readdirSync(path.join(runDir, 'raw')).some((f) => f.startsWith(`${fioJob.id}-a1-diskstats-host`))).toBe(true)
    // network jobs: the client ran on the measured side, the server on the other, and was stopped
    const iperf = run.jobs.find((j) => j.testId === 'iperf3' && j.side === 'host')!
    expect(iperf.peer).toBe('guest')
    expect(iperf.steps.map((s) => `${s.id}@${s.on}`)).toEqual(['server@guest', 'client@host'])
    expect(iperf.steps[1]!.command).toBe('iperf3 -c 127.0.0.1 -t 1 -J')

    const comparison = compare(comparisonInputOf(run))
    expect(comparison.baseline).toBe('host')
    expect(comparison.variants).toEqual(['guest (cache=none)'])
    const iops = comparison.rows.find((r) => r.metric === 'fio.read.iops')!
    const hostIops = run.jobs.filter((j) => j.testId === 'fio-randread' && j.side === 'host').map((j) => j.samples.find((s) => s.metric === 'fio.read.iops')!.value)
    const guestIops = run.jobs.filter((j) => j.testId === 'fio-randread' && j.side !== 'host').map((j) => j.samples.find((s) => s.metric === 'fio.read.iops')!.value)
    const median = (v: number[]) => (v.length === 2 ? (v[0]! + v[1]!) / 2 : v[0]!)
    expect(iops.baseline!.value).toBeCloseTo(median(hostIops), 9)
    expect(iops.cells[0]!.relativePct).toBeCloseTo((median(guestIops) / median(hostIops)) * 100, 9)
    expect(iops.cells[0]!.ci95).toHaveLength(2)
    const rtt = comparison.rows.find((r) => r.metric === 'ping.rtt.avg')!
    expect(rtt.better).toBe('lower')
    expect(rtt.cells[0]!.relativePct).toBeGreaterThan(0)

    // nothing left on the targets: the run's work folder is gone, no job process remains
    expect(existsSync(lab.workRoot) ? readdirSync(lab.workRoot) : []).toEqual([])
    expect(pgrep(`vb-${run.id}`)).toEqual([])
    // every event a watcher needs came, in order
    const types = lab.events.map((e) => e.type)
    expect(types[0]).toBe('run-started')
    expect(types.at(-1)).toBe('run-finished')
    expect(types.filter((t) => t === 'job-finished')).toHaveLength(16)
  })

  it('adds repetitions until a test is precise enough (at most the plan allows), runs a warm-up first, and records what else used each machine', async () => {
    // ± 0.1 points cannot be reached by two loopback sshd: the engine must stop at the maximum and say so
    const plan = planOf({
      tests: [{ id: 'cpu', tool: 'sysbench', params: { test: 'cpu', threads: 1, timeSeconds: 1 } }],
      repetitions: 2,
      warmup: true,
      precision: { halfWidthPct: 0.1, maxRepetitions: 4 }
    })
    const runDir = path.join(lab.dir, 'run-adaptive')
    const started = await startRun(plan, runDir, lab.services())
    expect(await started.done).toBe('completed')
    const run = await readRun(runDir)
    // the warm-up pair, the two planned rounds, then the two added ones, in the order they ran
    expect(run.jobs.map((j) => `${j.kind}/${j.side}/${j.repetition}`)).toEqual([
      'warmup/host/1',
      'warmup/guest (cache=none)/1',
      'compare/host/1',
      'compare/guest (cache=none)/1',
      'compare/host/2',
      'compare/guest (cache=none)/2',
      'compare/host/3',
      'compare/guest (cache=none)/3',
      'compare/host/4',
      'compare/guest (cache=none)/4'
    ])
    expect(new Set(run.jobs.map((j) => j.id)).size).toBe(run.jobs.length)
    expect(run.jobs.every((j) => j.status === 'succeeded')).toBe(true)
    expect(run.tests[0]?.adaptive).toMatchObject({ repetitions: 4, stoppedBecause: 'max-repetitions' })
    expect(run.tests[0]?.adaptive?.message).toMatch(/^sysbench cpu: ± [\d.]+ points after 4 repetitions, the most the plan allows \(target ± 0\.1\)/)
    expect(lab.events.some((e) => e.type === 'jobs-added')).toBe(true)
    // the warm-up runs are kept but never compared: 4 values a side
    const row = compare(comparisonInputOf(run)).rows.find((r) => r.metric === 'sysbench.cpu.events')!
    expect([row.baseline?.n, row.cells[0]?.stats?.n]).toEqual([4, 4])
    // every measured step read the CPU of its machine before and after, and the tool's own CPU time
    for (const job of run.jobs) {
      const window = job.contamination?.windows[0]
      expect(window?.target, job.id).toBe(job.target)
      expect(window?.seconds).toBeGreaterThan(0.5)
      expect(window?.busyPct).toBeGreaterThan(0)
      expect(window?.otherPct).toBeDefined()
    }
  })

  it('cancel stops the remote job and leaves no process and no test file on the target', async () => {
    const marker = `vbcancel${Date.now()}`
    const plan = planOf({
      tests: [{ id: 'fio-long', tool: 'fio', params: { name: marker, rw: 'randread', bs: '4k', size: '8m', runtime: 60, timeBased: true, ioengine: 'psync', direct: false } }]
    })
    const runDir = path.join(lab.dir, 'run-cancel')
    const started = await startRun(plan, runDir, lab.services())
    // cancel once fio really runs on the target
    expect(await waitFor(() => pgrep(`name=${marker}`).length > 0, 20_000)).toBe(true)
    const t0 = Date.now()
    started.engine.cancel()
    expect(await started.done).toBe('cancelled')
    expect(Date.now() - t0).toBeLessThan(15_000)
    const run = await readRun(runDir)
    expect(run.status).toBe('cancelled')
    expect(run.jobs.map((j) => j.status)).toEqual(['cancelled', 'cancelled'])
    expect(await waitFor(() => pgrep(marker).length === 0, 5000)).toBe(true)
    expect(existsSync(lab.workRoot) ? readdirSync(lab.workRoot) : []).toEqual([])
  })
})
