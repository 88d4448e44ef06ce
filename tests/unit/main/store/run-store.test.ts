import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
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
