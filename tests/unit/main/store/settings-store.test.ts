import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Settings, Theme } from '../../../../src/shared/contract'
import { DEFAULT_SETTINGS, SettingsStore } from '../../../../src/main/store/settings-store'

let dir: string

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-settings-'))
})

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

async function readSettingsFile(): Promise<unknown> {
  return JSON.parse(await fs.readFile(path.join(dir, 'settings.json'), 'utf8'))
}

describe('SettingsStore', () => {
  it('starts from { theme: "system" } when there is no settings file', async () => {
    expect(DEFAULT_SETTINGS).toEqual({ theme: 'system' })
    const problems: string[] = []
    const store = new SettingsStore(dir, (problem) => problems.push(problem))
    expect(await store.get()).toEqual({ theme: 'system' })
    expect(problems).toEqual([])
    expect(await fs.readdir(dir)).toEqual([])
  })

  it('persists an update so a new store on the same directory reads it back', async () => {
    const store = new SettingsStore(dir)
    expect(await store.update({ theme: 'dark' })).toEqual({ theme: 'dark' })
    expect(await store.get()).toEqual({ theme: 'dark' })
    expect(await readSettingsFile()).toEqual({ kind: 'virtbench.settings', version: 1, data: { theme: 'dark' } })
    expect(await new SettingsStore(dir).get()).toEqual({ theme: 'dark' })
  })

  it('keeps the current value for keys a patch leaves undefined', async () => {
    const store = new SettingsStore(dir)
    await store.update({ theme: 'light' })
    expect(await store.update({ theme: undefined })).toEqual({ theme: 'light' })
    expect(await store.update({})).toEqual({ theme: 'light' })
    expect(await new SettingsStore(dir).get()).toEqual({ theme: 'light' })
  })

  it('applies many concurrent updates in the order they were made, losing none', async () => {
    const store = new SettingsStore(dir)
    const cycle = (i: number): Theme => (i % 3 === 0 ? 'light' : i % 3 === 1 ? 'dark' : 'system')
    const themes = [...Array.from({ length: 30 }, (_, i) => cycle(i)), 'dark' as const]
    const results = await Promise.all(themes.map((theme) => store.update({ theme })))
    expect(results.map((settings) => settings.theme)).toEqual(themes)
    expect(await store.get()).toEqual({ theme: 'dark' })
    expect(await new SettingsStore(dir).get()).toEqual({ theme: 'dark' })
    expect(await fs.readdir(dir)).toEqual(['settings.json'])
  })

  it('rejects an invalid patch without changing the stored settings, and keeps serving later updates', async () => {
    const store = new SettingsStore(dir)
    await store.update({ theme: 'dark' })
    const bad = store.update({ theme: 'purple' } as unknown as { theme: Theme })
    const good = store.update({ theme: 'light' })
    await expect(bad).rejects.toThrow()
    expect(await good).toEqual({ theme: 'light' })
    expect(await new SettingsStore(dir).get()).toEqual({ theme: 'light' })
  })

  it('reports a corrupt settings.json through onProblem and falls back to the defaults', async () => {
    const file = path.join(dir, 'settings.json')
    await fs.writeFile(file, '{"kind":"virtbench.settings","version":1,"data":{"theme":"neon"}}')
    const problems: string[] = []
    const store = new SettingsStore(dir, (problem) => problems.push(problem))
    expect(await store.get()).toEqual({ theme: 'system' })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(file)
    expect(problems[0]).toContain('invalid data at theme')
    const asides = (await fs.readdir(dir)).filter((name) => name.startsWith('settings.json.unreadable-'))
    expect(asides).toHaveLength(1)
    expect(problems[0]).toContain(path.join(dir, asides[0] ?? ''))
    // The problem is reported once, not on every read.
    await store.get()
    expect(problems).toHaveLength(1)
  })

  it('survives concurrent first reads of a corrupt settings.json', async () => {
    // Two windows (or a window and a bridge client) asking for the settings at start-up.
    await fs.writeFile(path.join(dir, 'settings.json'), '{ not json')
    const problems: string[] = []
    const store = new SettingsStore(dir, (problem) => problems.push(problem))
    const results = await Promise.allSettled([store.get(), store.get(), store.get()])
    const values: (Settings | string)[] = results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))
    expect(values).toEqual([{ theme: 'system' }, { theme: 'system' }, { theme: 'system' }])
    expect(problems).toHaveLength(1)
  })
})
