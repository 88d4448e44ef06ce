/** runs:get on a sweep through the store's RunDocumentCache: one frozen, checked document while no file it is built from changes. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RunDocumentCache, RunStore, writeRunFile } from '../../../../src/main/store/run-store'
import { wasChecked } from '../../../../src/shared/checked-values'
import { RunDocumentSchema, type RunDocument } from '../../../../src/shared/model/run'

const SWEEP = path.join(__dirname, '../../../fixtures/runs/sweep-cache-io')

describe("a sweep's combined document (RunDocumentCache.sweepRun)", () => {
  let root: string
  let dir: string
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'vb-sweep-cache-'))
    dir = path.join(root, 'sweep-cache-io')
    cpSync(SWEEP, dir, { recursive: true })
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it('gives the same frozen, checked document while the sweep is unchanged, the same as without a cache', async () => {
    const store = new RunStore(root, { cache: new RunDocumentCache() })
    const first = await store.get('sweep-cache-io')
    expect(first).toEqual(await new RunStore(root).get('sweep-cache-io'))
    expect(first.id).toBe('sweep-cache-io')
    expect(Object.isFrozen(first)).toBe(true)
    expect(wasChecked(first, RunDocumentSchema)).toBe(true)
    expect(await store.get('sweep-cache-io')).toBe(first)
    // sweep.json written again with the same bytes: still the same document
    writeFileSync(path.join(dir, 'sweep.json'), readFileSync(path.join(dir, 'sweep.json')))
    expect(await store.get('sweep-cache-io')).toBe(first)
  })

  it('gives a new document when a step changes, or sweep.json does', async () => {
    const store = new RunStore(root, { cache: new RunDocumentCache() })
    const first = await store.get('sweep-cache-io')
    const record = JSON.parse(readFileSync(path.join(dir, 'sweep.json'), 'utf8')) as { steps: { dir: string }[]; name?: string }
    const last = path.join(dir, record.steps.at(-1)!.dir)
    const step = JSON.parse(readFileSync(path.join(last, 'run.json'), 'utf8')) as RunDocument
    await writeRunFile(last, { ...step, updatedAt: '2030-01-01T00:00:00.000Z' })
    const second = await store.get('sweep-cache-io')
    expect(second).not.toBe(first)
    expect(second.updatedAt).toBe('2030-01-01T00:00:00.000Z')
    expect(await store.get('sweep-cache-io')).toBe(second)

    writeFileSync(path.join(dir, 'sweep.json'), `${JSON.stringify({ ...record, name: 'renamed sweep' }, null, 2)}\n`)
    const third = await store.get('sweep-cache-io')
    expect(third).not.toBe(second)
    expect(third.name).toBe('renamed sweep')
  })
})
