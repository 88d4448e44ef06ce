import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi, type Api } from '../../../src/main/api/handlers'
import { readPresetFile } from '../../../src/main/presets/presets'
import type { Envelope } from '../../../src/shared/contract'
import { PRESET_VERSION, type Preset, type PresetInput } from '../../../src/shared/model/plan'
import type { PresetList, PresetSummary } from '../../../src/shared/presets-contract'

let dataDir: string
let api: Api
const changes: PresetList[] = []
const RESOURCES = path.resolve(__dirname, '../../../resources/presets')

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-presets-api-'))
  api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
  changes.length = 0
  api.hub.subscribe((event, payload) => {
    if (event === 'presets:changed') changes.push(payload as PresetList)
  })
})
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
})

const call = (channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<Envelope<unknown>> => dispatch(api.handlers, channel, payload)
async function invoke<T>(channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<T> {
  const result = await call(channel, payload)
  if (!result.ok) throw new Error(`${String(channel)}: ${result.error.message}`)
  return result.value as T
}

const mine = (name: string): PresetInput => ({
  kind: 'virtbench-preset',
  version: PRESET_VERSION,
  description: 'every release',
  plan: { name, baseline: { target: 'host-01' }, variants: [{ target: 'guest-01', scenario: { cache: 'none' } }], tests: [{ pack: 'block-dd', form: 'quick' }, { id: 'ping', tool: 'ping', params: { count: 3 } }] }
})

describe('the study presets shipped with VirtBench', () => {
  it('are listed first-start as built-in presets, by name, and open with their whole document', async () => {
    const list = await invoke<PresetList>('presets:list')
    expect(list.problems).toEqual([])
    const files = (await fs.readdir(RESOURCES)).filter((f) => f.endsWith('.json') && f !== 'preset.schema.json')
    expect(list.presets.map((p) => p.id).sort()).toEqual(files.map((f) => `builtin:${f.slice(0, -5)}`).sort())
    expect(list.presets.every((p) => p.builtin && p.modifiedAt === undefined)).toBe(true)
    expect(list.presets.map((p) => p.name)).toEqual([...list.presets.map((p) => p.name)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })))

    const cloud = list.presets.find((p) => p.id === 'builtin:cloud-acceptance')
    const file = await readPresetFile(path.join(RESOURCES, 'cloud-acceptance.json'))
    expect(cloud).toEqual({
      id: 'builtin:cloud-acceptance',
      name: file.plan.name,
      ...(file.description !== undefined ? { description: file.description } : {}),
      builtin: true,
      baseline: 'phys-01',
      variants: ['vm-linux-none-q1', 'vm-linux-none-q4', 'vm-linux-wb-q1', 'vm-linux-wb-q4'],
      tests: ['cloud-acceptance']
    })
    expect(await invoke('presets:get', { id: 'builtin:cloud-acceptance' })).toEqual({ summary: cloud, preset: file })
  })

  it('cannot be renamed, changed or deleted, and can be duplicated into a saved preset', async () => {
    for (const [channel, payload] of [
      ['presets:rename', { id: 'builtin:block-dd', name: 'mine' }],
      ['presets:remove', { id: 'builtin:block-dd' }],
      ['presets:save', { id: 'builtin:block-dd', preset: mine('mine') }]
    ] as const) {
      const refused = await call(channel, payload)
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-request', issues: [{ path: 'id', message: 'a built-in preset is read-only' }] } })
      expect((refused as { error: { message: string } }).error.message).toMatch(/^The study presets that ship with VirtBench cannot be (renamed|deleted|changed); duplicate it and (change|delete) the copy\.$/)
    }
    expect(changes).toEqual([])

    const copy = await invoke<PresetSummary>('presets:duplicate', { id: 'builtin:block-dd', name: 'Block dd for our cluster' })
    expect(copy).toMatchObject({ id: 'block-dd-for-our-cluster', name: 'Block dd for our cluster', builtin: false, baseline: 'ref-chroot', tests: ['block-dd'] })
    const saved = await readPresetFile(path.join(dataDir, 'presets', 'block-dd-for-our-cluster.json'))
    const original = await readPresetFile(path.join(RESOURCES, 'block-dd.json'))
    expect(saved).toEqual({ ...original, plan: { ...original.plan, name: 'Block dd for our cluster' } })
    expect(changes).toHaveLength(1)
    expect(changes[0]?.presets.map((p) => p.id)).toContain('block-dd-for-our-cluster')
    // the file is still there and unchanged
    expect(await readPresetFile(path.join(RESOURCES, 'block-dd.json'))).toEqual(original)
  })

  it('export as the file they ship in', async () => {
    const exported = await invoke<{ fileName: string; text: string }>('presets:export', { id: 'builtin:seq-dd' })
    expect(exported.fileName).toBe('seq-dd.json')
    expect(JSON.parse(exported.text)).toEqual(await readPresetFile(path.join(RESOURCES, 'seq-dd.json')))
    expect(exported.text.endsWith('}\n')).toBe(true)
  })
})

describe('saved presets', () => {
  it('save, list, get, replace, rename, export and remove, announcing every change', async () => {
    const saved = await invoke<PresetSummary>('presets:save', { preset: mine('Nightly: KVM vs host') })
    expect(saved).toEqual({
      id: 'nightly-kvm-vs-host',
      name: 'Nightly: KVM vs host',
      description: 'every release',
      builtin: false,
      modifiedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      baseline: 'host-01',
      variants: ['guest-01'],
      tests: ['block-dd', 'ping']
    })
    const { preset } = await invoke<{ preset: Preset }>('presets:get', { id: saved.id })
    expect(preset.plan.repetitions).toBe(3) // defaults are filled in
    expect(changes.at(-1)?.presets.find((p) => p.id === saved.id)).toEqual(saved)

    // replacing keeps the id while the name stays; a new name moves the file
    const replaced = await invoke<PresetSummary>('presets:save', { id: saved.id, preset: { ...mine('Nightly: KVM vs host'), description: 'changed' } })
    expect(replaced).toMatchObject({ id: saved.id, description: 'changed' })
    const moved = await invoke<PresetSummary>('presets:save', { id: saved.id, preset: mine('Weekly: KVM vs host') })
    expect(moved.id).toBe('weekly-kvm-vs-host')
    expect(await fs.readdir(path.join(dataDir, 'presets'))).toEqual(['weekly-kvm-vs-host.json'])

    const renamed = await invoke<PresetSummary>('presets:rename', { id: moved.id, name: 'Monthly' })
    expect(renamed).toMatchObject({ id: 'monthly', name: 'Monthly' })
    const exported = await invoke<{ fileName: string; text: string }>('presets:export', { id: 'monthly' })
    expect(exported.fileName).toBe('monthly.json')
    expect(exported.text).toBe(await fs.readFile(path.join(dataDir, 'presets', 'monthly.json'), 'utf8'))

    expect(await invoke('presets:remove', { id: 'monthly' })).toEqual({ removed: 'monthly' })
    expect(await fs.readdir(path.join(dataDir, 'presets'))).toEqual([])
    expect(changes).toHaveLength(5)
    expect(changes.at(-1)?.presets.filter((p) => !p.builtin)).toEqual([])
    expect(await call('presets:get', { id: 'monthly' })).toMatchObject({ ok: false, error: { code: 'failed', message: expect.stringContaining('There is no saved preset "monthly"') } })
  })

  it('refuses a name another preset has, pointing at the name field', async () => {
    await invoke('presets:save', { preset: mine('Nightly') })
    const again = await call('presets:save', { preset: mine('NIGHTLY') })
    expect(again).toMatchObject({ ok: false, error: { code: 'invalid-request', issues: [{ path: 'preset.plan.name' }] } })
    expect((again as { error: { message: string } }).error.message).toMatch(/The preset "Nightly" is already saved as nightly\.json/)
    await invoke('presets:save', { preset: mine('Other') })
    expect(await call('presets:rename', { id: 'other', name: 'nightly' })).toMatchObject({ ok: false, error: { code: 'invalid-request', issues: [{ path: 'name' }] } })
    expect(await call('presets:duplicate', { id: 'other', name: 'Nightly' })).toMatchObject({ ok: false, error: { code: 'invalid-request', issues: [{ path: 'name' }] } })
  })

  it('never saves a secret, naming the field that looks like one', async () => {
    const secret = mine('With a secret')
    const withPassword = { ...secret, plan: { ...secret.plan, tests: [{ id: 'ping', tool: 'ping', params: { count: 3, password: 'hunter2' } }] } }
    const refused = await call('presets:save', { preset: withPassword })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-request', issues: [{ path: 'preset.plan.tests.0.params.password', message: 'looks like a secret' }] } })
    expect(JSON.stringify(refused)).not.toContain('hunter2')
    const imported = await call('presets:import', { text: JSON.stringify(withPassword), fileName: 'leak.json' })
    expect(imported).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringContaining('leak.json holds a secret-like field (plan.tests[0].params.password)') } })
    await expect(fs.readdir(path.join(dataDir, 'presets'))).rejects.toThrow()
  })
})

describe('presets:import', () => {
  it('saves the file\'s preset, adding " (2)", " (3)" to a name that is taken', async () => {
    const text = `${JSON.stringify(mine('Nightly'), null, 2)}\n`
    const first = await invoke<PresetSummary>('presets:import', { text, fileName: 'nightly.json' })
    const second = await invoke<PresetSummary>('presets:import', { text })
    const third = await invoke<PresetSummary>('presets:import', { text })
    expect([first, second, third].map((p) => [p.id, p.name])).toEqual([
      ['nightly', 'Nightly'],
      ['nightly-2', 'Nightly (2)'],
      ['nightly-3', 'Nightly (3)']
    ])
    // a built-in preset's name counts as taken too
    const builtin = await invoke<{ fileName: string; text: string }>('presets:export', { id: 'builtin:seq-dd' })
    const copy = await invoke<PresetSummary>('presets:import', { text: builtin.text, fileName: builtin.fileName })
    expect(copy.name).toBe(`${JSON.parse(builtin.text).plan.name} (2)`)
    expect(changes).toHaveLength(4)
  })

  it('names every problem of a file that is not a valid preset, with its field and what to do', async () => {
    const bad = { kind: 'virtbench-preset', version: 1, plan: { name: 'x', baseline: { target: 'h' }, variants: [{ target: 'g', scenario: { cache: 'write-back' } }], tests: [{ pack: 'block-dd' }], repetitons: 3 } }
    const refused = await call('presets:import', { text: JSON.stringify(bad), fileName: 'mine.json' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-request' } })
    expect((refused as { error: { message: string } }).error.message).toBe(
      'mine.json is not a valid preset:\n' +
        '- plan.variants[0].scenario.cache: expected one of none, writeback, writethrough, directsync, unsafe, found "write-back"\n' +
        '- plan.repetitons: unknown field (check its spelling; docs/presets.md lists the fields)\n' +
        '(docs/presets.md describes the format)'
    )
    expect(await call('presets:import', { text: 'not json', fileName: 'x.json' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^x\.json is not JSON: /) } })
    expect(await call('presets:import', { text: '{"kind":"virtbench-run"}' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('the imported file is not a VirtBench preset') } })
    expect(changes).toEqual([])
  })
})
