/**
 * An admin's own two-job fio job file through the engine, against two real sshd on loopback:
 * validated, uploaded verbatim, run by the real fio in the run's work directory, every job parsed
 * with its own label, the text kept in the run document. direct=0: the work directory may be a tmpfs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRun } from '../../../src/main/engine/start-run'
import { PlanError } from '../../../src/main/engine/planner'
import { readRun } from '../../../src/main/store/run-store'
import { compare } from '../../../src/shared/compare'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { startLab, type Lab } from '../engine/run-harness'

const JOB_FILE = `; two jobs side by side, as study 003's file with two sections
[global]
ioengine=psync
bs=4k
size=16m
runtime=1
time_based

[reader]
rw=randread

[writer]
rw=randwrite
filename=writer.dat
`

describe("fio with the admin's own job file, through the engine", () => {
  let lab: Lab
  beforeAll(async () => {
    lab = await startLab()
  })
  afterAll(async () => {
    await lab?.stop()
  })

  const planOf = (jobFile: string) =>
    ComparisonPlanSchema.parse({
      name: 'own job file',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      tests: [{ id: 'own-fio', tool: 'fio', params: { jobFile } }]
    })

  it('runs both jobs on each side, labels each by its name, and keeps the job file verbatim', async () => {
    const runDir = path.join(lab.dir, 'run-own')
    const started = await startRun(planOf(JOB_FILE), runDir, lab.services())
    expect(await started.done).toBe('completed')
    const run = await readRun(runDir)
    expect(run.tests.map((t) => t.params.jobFile)).toEqual([JOB_FILE])
    expect(run.jobs).toHaveLength(2)
    for (const job of run.jobs) {
      expect(job.status, job.error).toBe('succeeded')
      const step = job.steps.find((s) => s.measured)!
      const workDir = /^cd -- (\S+) && /.exec(step.command)?.[1]
      expect(step.command).toBe(`cd -- ${workDir} && fio --output-format=json ${workDir}/virtbench-own.fio`)
      const report = JSON.parse(readFileSync(path.join(runDir, step.stdoutFile!), 'utf8')) as {
        jobs: { jobname: string; read: { iops: number; total_ios: number }; write: { iops: number; total_ios: number } }[]
      }
      expect(report.jobs.map((j) => j.jobname)).toEqual(['reader', 'writer'])
      const [reader, writer] = report.jobs
      const sample = (metric: string, name: string) => job.samples.find((s) => s.metric === metric && s.labels.job === name)?.value
      expect(reader!.read.total_ios).toBeGreaterThan(0)
      expect(writer!.write.total_ios).toBeGreaterThan(0)
      expect(sample('fio.read.iops', 'reader')).toBeCloseTo(reader!.read.iops, 6)
      expect(sample('fio.write.iops', 'writer')).toBeCloseTo(writer!.write.iops, 6)
      expect(sample('fio.write.iops', 'reader')).toBeUndefined()
    }
    const comparison = compare(comparisonInputOf(run))
    const labelled = comparison.rows.filter((r) => r.metric === 'fio.read.iops' || r.metric === 'fio.write.iops').map((r) => `${r.metric} ${r.labels.job ?? 'all'}`)
    expect(labelled).toEqual(expect.arrayContaining(['fio.read.iops reader', 'fio.write.iops writer']))
    // the work folders are gone with every file the jobs wrote
    expect(existsSync(lab.workRoot) ? readdirSync(lab.workRoot) : []).toEqual([])
  })

  it('refuses a job file that runs a command before anything runs, naming the section and the option', async () => {
    const bad = `${JOB_FILE}exec_postrun=touch ${path.join(lab.dir, 'ran')}\n`
    const error = await startRun(planOf(bad), path.join(lab.dir, 'run-bad'), lab.services()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PlanError)
    expect((error as Error).message).toContain('job file line 15, [writer], exec_postrun: exec_postrun runs a command on the target after the job')
    expect(existsSync(path.join(lab.dir, 'ran'))).toBe(false)
    expect(existsSync(path.join(lab.dir, 'run-bad', 'run.json'))).toBe(false)
  })
})
