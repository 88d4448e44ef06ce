import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { markIfInterrupted, readRun, RunDocumentCache, RunFileError, RunFolder, RunStore, writeRunFile } from '../../../../src/main/store/run-store'
import { wasChecked } from '../../../../src/shared/checked-values'
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

describe('reading a run folder again (RunDocumentCache)', () => {
  let root: string
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'vb-run-cache-'))
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it('gives the document it checked while the folder holds the same bytes: frozen, and marked as checked for dispatch', async () => {
    const dir = path.join(root, 'c1')
    await RunFolder.create(dir, fixture())
    const cache = new RunDocumentCache()
    const first = await cache.read(dir)
    expect(first).toEqual(await readRun(dir))
    expect(await cache.read(dir)).toBe(first)
    expect(Object.isFrozen(first.jobs[0]!.samples[0])).toBe(true)
    expect(() => (first.jobs[0]!.status = 'failed')).toThrow(TypeError)
    expect(wasChecked(first, RunDocumentSchema)).toBe(true)
    expect(wasChecked(await readRun(dir), RunDocumentSchema)).toBe(false)
    // the same bytes written again (a new inode): still the same document
    await writeRunFile(dir, JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunDocument)
    expect(await cache.read(dir)).toBe(first)
  })

  it("reads a file the engine rewrote (atomic rename) and a job in the journal at once, never the document it kept", async () => {
    const dir = path.join(root, 'c2')
    const doc = fixture()
    for (const job of doc.jobs) Object.assign(job, { status: 'queued', attempts: 0, samples: [], steps: [], warnings: [] })
    const folder = await RunFolder.create(dir, { ...doc, status: 'running' })
    const cache = new RunDocumentCache()
    expect((await cache.read(dir)).jobs[0]!.status).toBe('queued')
    const job = folder.run.jobs[0]!
    await folder.endJob(job, () => Object.assign(job, fixture().jobs[0]))
    expect((await cache.read(dir)).jobs[0]).toEqual(fixture().jobs[0])
    folder.update((d) => (d.name = 'renamed while it runs'))
    await folder.close()
    const read = await cache.read(dir)
    expect(read.name).toBe('renamed while it runs')
    expect(read).toEqual(await readRun(dir))
  })

  it('reads a file changed in place to the same size, inode and time stamps again', async () => {
    const dir = path.join(root, 'c3')
    await RunFolder.create(dir, { ...fixture(), name: 'name A' })
    const file = path.join(dir, 'run.json')
    // a whole second, as a file system of coarse time stamps keeps it
    const stamp = new Date('2026-11-26T12:00:00Z')
    utimesSync(file, stamp, stamp)
    const cache = new RunDocumentCache()
    expect((await cache.read(dir)).name).toBe('name A')
    const before = statSync(file)
    writeFileSync(file, readFileSync(file, 'utf8').replace('"name A"', '"name B"'))
    utimesSync(file, stamp, stamp)
    const after = statSync(file)
    expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs])
    expect((await cache.read(dir)).name).toBe('name B')
  })

  it('still refuses a damaged file with the clear error, every time, and reads it again once it is mended', async () => {
    const dir = path.join(root, 'c4')
    await RunFolder.create(dir, fixture())
    const file = path.join(dir, 'run.json')
    const good = readFileSync(file, 'utf8')
    const cache = new RunDocumentCache()
    const first = await cache.read(dir)
    writeFileSync(file, good.replace('"kind": "virtbench-run"', '"kind": "virtbench-run", "jobs": 7, "x": {'))
    await expect(cache.read(dir)).rejects.toThrow(new RunFileError(`${file} is not JSON (${jsonError(good.replace('"kind": "virtbench-run"', '"kind": "virtbench-run", "jobs": 7, "x": {'))}); it is not a VirtBench run document`))
    writeFileSync(file, good.replace(/"status": "succeeded"/, '"status": "finished"'))
    await expect(cache.read(dir)).rejects.toThrow(/run\.json is damaged: jobs\.0\.status: /)
    await expect(cache.read(dir)).rejects.toThrow(RunFileError)
    writeFileSync(file, good)
    const mended = await cache.read(dir)
    expect(mended).toEqual(first)
    expect(mended).not.toBe(first)
  })

  it('keeps the folders read last (the oldest goes first)', async () => {
    const cache = new RunDocumentCache(2)
    const dirs = ['k1', 'k2', 'k3'].map((name) => path.join(root, name))
    for (const dir of dirs) await RunFolder.create(dir, fixture())
    const [a, b] = [await cache.read(dirs[0]!), await cache.read(dirs[1]!)]
    expect(await cache.read(dirs[0]!)).toBe(a)
    await cache.read(dirs[2]!)
    expect(await cache.read(dirs[0]!)).toBe(a)
    expect(await cache.read(dirs[1]!)).not.toBe(b)
  })

  it('lets RunStore mark a run whose process is gone interrupted, and then gives the interrupted run', async () => {
    const dir = path.join(root, 'r1')
    await RunFolder.create(dir, { ...fixture(), status: 'running' })
    const store = new RunStore(root, { cache: new RunDocumentCache() })
    expect((await store.get('r1')).status).toBe('running')
    writeFileSync(path.join(dir, '.lock'), '999999999') // no such process
    expect((await store.get('r1')).status).toBe('interrupted')
    const again = await store.get('r1')
    expect(again.status).toBe('interrupted')
    expect(await store.get('r1')).toBe(again)
    expect((await store.list()).runs.map((r) => r.status)).toEqual(['interrupted'])
  })
})

/** The message JSON.parse gives for `text`. */
function jsonError(text: string): string {
  try {
    JSON.parse(text)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the text is JSON')
}
