import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { markIfInterrupted, readRun, RunFolder, RunStore } from '../../../../src/main/store/run-store'
import { RunDocumentSchema, type RunDocument } from '../../../../src/shared/model/run'

const fixture = (): RunDocument =>
  RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(__dirname, '../../../fixtures/runs/loopback-quick/run.json'), 'utf8')))

describe('a run left "running" (markIfInterrupted)', () => {
  let root: string
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'vb-run-store-'))
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it('marks a run whose process is gone interrupted, keeping its completed jobs', async () => {
    const dir = path.join(root, 'r1')
    const folder = await RunFolder.create(dir, { ...fixture(), status: 'running' })
    await folder.flush()
    writeFileSync(path.join(dir, '.lock'), '999999999') // no such process
    const doc = await new RunStore(root).get('r1')
    expect(doc.status).toBe('interrupted')
    expect(doc.jobs.every((j) => j.status === 'succeeded')).toBe(true)
    expect((await readRun(dir)).status).toBe('interrupted')
  })

  it('leaves a run of a live process alone', async () => {
    const dir = path.join(root, 'r2')
    await RunFolder.create(dir, { ...fixture(), status: 'running' })
    expect((await new RunStore(root).get('r2')).status).toBe('running')
    expect(readFileSync(path.join(dir, '.lock'), 'utf8')).toBe(String(process.pid))
  })

  it('never overwrites a run that ended after its "running" copy was read (its lock goes after its last write)', async () => {
    const dir = path.join(root, 'r3')
    const folder = await RunFolder.create(dir, { ...fixture(), status: 'running' })
    const stale = await readRun(dir)
    folder.update((doc) => (doc.status = 'completed'))
    await folder.close()
    const doc = await markIfInterrupted(dir, stale)
    expect(doc.status).toBe('completed')
    expect((await readRun(dir)).status).toBe('completed')
  })
})

describe('a job that ends (RunFolder.endJob and its journal)', () => {
  let root: string
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'vb-run-journal-'))
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  /** A run whose jobs are all queued again, written, as a run that has just begun. */
  async function begun(dir: string): Promise<RunFolder> {
    const doc = fixture()
    for (const job of doc.jobs) Object.assign(job, { status: 'queued', attempts: 0, samples: [], steps: [], warnings: [] })
    return RunFolder.create(dir, { ...doc, status: 'running' })
  }

  it('keeps a job that ended in a crash right after, before run.json was written again', async () => {
    const dir = path.join(root, 'j1')
    const ended = fixture().jobs[0]!
    const folder = await begun(dir)
    // the write right after create is held back (at most one a second; its timer never fires here):
    // only the journal has the job
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const job = folder.run.jobs[0]!
    try {
      await folder.endJob(job, () => Object.assign(job, ended))
    } finally {
      vi.useRealTimers()
    }
    const onDisk = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunDocument
    expect(onDisk.jobs[0]!.status).toBe('queued')
    // the process is gone (a crash): what a reader finds, and what markIfInterrupted keeps
    writeFileSync(path.join(dir, '.lock'), '999999999')
    expect((await readRun(dir)).jobs[0]).toEqual(ended)
    const doc = await new RunStore(root).get('j1')
    expect(doc.status).toBe('interrupted')
    expect(doc.jobs[0]).toEqual(ended)
    expect(doc.jobs.slice(1).every((j) => j.status === 'queued')).toBe(true)
    expect((await readRun(dir)).jobs[0]).toEqual(ended)
  })

  it('leaves out a journal line cut short, and never lays an older attempt over a newer one', async () => {
    const dir = path.join(root, 'j2')
    const folder = await begun(dir)
    const job = folder.run.jobs[0]!
    await folder.endJob(job, () => Object.assign(job, { status: 'failed', attempts: 1, error: 'first' }))
    await folder.endJob(job, () => Object.assign(job, { status: 'succeeded', attempts: 2, error: undefined }))
    writeFileSync(path.join(dir, 'jobs.journal'), `${readFileSync(path.join(dir, 'jobs.journal'), 'utf8')}${JSON.stringify({ ...job, attempts: 1 })}\n{"id": "cut`)
    const read = await readRun(dir)
    expect(read.jobs[0]).toMatchObject({ status: 'succeeded', attempts: 2 })
    await folder.close()
    expect(readFileSync(path.join(dir, 'run.json'), 'utf8')).toContain('"attempts": 2')
    expect(() => readFileSync(path.join(dir, 'jobs.journal'))).toThrow()
  })
})
