import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { environmentChanges } from '../../../src/shared/environment-diff'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'

/** A real run folder written by the engine (two loopback targets). */
const FIXTURE = path.resolve(__dirname, '../../fixtures/runs/loopback-quick/run.json')
const older = RunDocumentSchema.parse(JSON.parse(readFileSync(FIXTURE, 'utf8')))

function withEnvironment(run: RunDocument, change: (name: string, env: RunDocument['environment'][string]) => RunDocument['environment'][string]): RunDocument {
  return { ...run, environment: Object.fromEntries(Object.entries(run.environment).map(([name, env]) => [name, change(name, env)])) }
}

describe('environmentChanges', () => {
  const names = older.targets.map((t) => t.name)

  it('finds nothing between a run and itself once volatile facts (load, steal, free space, work directory) moved', () => {
    const newer = withEnvironment(older, (_, env) => ({
      ...env,
      loadAverage: [9, 9, 9],
      stealPct: 12,
      ...(env.workDir ? { workDir: { ...env.workDir, path: `${env.workDir.path}-2`, freeBytes: 1 } } : {})
    }))
    expect(environmentChanges(older, newer)).toEqual(older.targets.map((t) => ({ target: t.name, role: t.role, differences: [] })))
  })

  it('names a new kernel and a new tool version on the target that got them, old → new', () => {
    const guest = names[1]!
    const newer = withEnvironment(older, (name, env) => (name === guest ? { ...env, kernel: '6.20.0-vb', tools: { ...env.tools, qemu: 'QEMU 10.1.0' } } : env))
    const changes = environmentChanges(older, newer)
    expect(changes[0]!.differences).toEqual([])
    expect(changes[1]!.differences).toEqual([
      { key: 'kernel', group: 'System', label: 'Kernel', a: older.environment[guest]!.kernel, b: '6.20.0-vb' },
      { key: 'tool.qemu', group: 'Tools', label: 'qemu', b: 'QEMU 10.1.0' }
    ])
  })

  it('says when a run has no environment for a target', () => {
    const newer = { ...older, environment: {} }
    expect(environmentChanges(older, newer).map((c) => c.missing)).toEqual(names.map(() => 'newer'))
  })
})
