import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PRESET_KIND, PRESET_VERSION, type PresetInput } from '../../../../src/shared/model/plan'
import { isPresetSlug, presetSlug, PresetsStore, PresetStoreError } from '../../../../src/main/presets/presets-store'

let dataDir: string

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-preset-store-'))
})

afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
})

const preset = (name: string, variant = 'vm-a'): PresetInput => ({
  kind: PRESET_KIND,
  version: PRESET_VERSION,
  plan: { name, baseline: { target: 'phys-01' }, variants: [{ target: variant }], tests: [{ pack: 'seq-dd', form: 'quick' }] }
})

async function refusal(promise: Promise<unknown>): Promise<PresetStoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(PresetStoreError)
  return error as PresetStoreError
}

describe('presetSlug', () => {
  it('makes a file name from the plan name', () => {
    expect(presetSlug('Block device dd: Xen PV/HVM vs KVM IDE/virtio')).toBe('block-device-dd-xen-pv-hvm-vs-kvm-ide-virtio')
    expect(presetSlug('  Überprüfung — Café 2024!  ')).toBe('uberprufung-cafe-2024')
    expect(presetSlug('云平台验收测试')).toBe('云平台验收测试')
    expect(presetSlug('../../etc/passwd')).toBe('etc-passwd')
    expect(presetSlug('!!!')).toBe('preset')
    expect(presetSlug('CON')).toBe('con-preset')
    expect(presetSlug('x'.repeat(100))).toBe('x'.repeat(48))
    expect(presetSlug(`${'a'.repeat(47)} b`)).toBe('a'.repeat(47))
  })

  it('makes only slugs the store accepts', () => {
    for (const name of ['Block dd', 'Überprüfung', '云平台', '!!!', 'CON', 'a'.repeat(200), 'a - b']) expect(isPresetSlug(presetSlug(name))).toBe(true)
    for (const bad of ['', '../targets', 'a/b', 'A', 'a--b', '-a', 'a.json', 'a b']) expect(isPresetSlug(bad)).toBe(false)
  })
})

describe('PresetsStore', () => {
  it('starts empty when the folder does not exist yet', async () => {
    expect(await new PresetsStore(dataDir).list()).toEqual({ presets: [], problems: [] })
  })

  it('saves a preset as <dataDir>/presets/<slug>.json, atomically, and gets it back', async () => {
    const store = new PresetsStore(dataDir)
    const saved = await store.save(preset('Hyper-V vs VMware'))
    expect(saved.slug).toBe('hyper-v-vs-vmware')
    expect(saved.file).toBe(path.join(dataDir, 'presets', 'hyper-v-vs-vmware.json'))
    expect(saved.preset.plan.repetitions).toBe(3)
    expect(Date.parse(saved.modifiedAt)).not.toBeNaN()
    expect(await fs.readdir(path.join(dataDir, 'presets'))).toEqual(['hyper-v-vs-vmware.json'])
    expect((await fs.stat(saved.file)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await fs.readFile(saved.file, 'utf8'))).toEqual(saved.preset)
    expect(await store.get('hyper-v-vs-vmware')).toEqual(saved)
  })

  it('never replaces another preset silently', async () => {
    const store = new PresetsStore(dataDir)
    await store.save(preset('Hyper-V vs VMware', 'vm-a'))
    const same = await refusal(store.save(preset('Hyper-V vs VMware', 'vm-b')))
    expect(same.code).toBe('conflict')
    expect(same.message).toBe(
      'A preset named "Hyper-V vs VMware" is already saved as hyper-v-vs-vmware.json; "Hyper-V vs VMware" would replace it. Save with overwrite to replace it, or give this one another name.'
    )
    const lookalike = await refusal(store.save(preset('hyper-v VS vmware!', 'vm-b')))
    expect(lookalike.message).toContain('The preset "Hyper-V vs VMware" is already saved as hyper-v-vs-vmware.json; "hyper-v VS vmware!" would replace it.')
    expect((await store.get('hyper-v-vs-vmware')).preset.plan.variants[0]?.target).toBe('vm-a')

    const replaced = await store.save(preset('Hyper-V vs VMware', 'vm-b'), { overwrite: true })
    expect(replaced.preset.plan.variants[0]?.target).toBe('vm-b')
    expect((await store.get('hyper-v-vs-vmware')).preset.plan.variants[0]?.target).toBe('vm-b')
    expect(await fs.readdir(path.join(dataDir, 'presets'))).toEqual(['hyper-v-vs-vmware.json'])
  })

  it('does not replace a file in the way that is not a preset, unless told to', async () => {
    const store = new PresetsStore(dataDir)
    await fs.mkdir(store.dir, { recursive: true })
    await fs.writeFile(store.fileOf('notes'), 'my notes')
    const error = await refusal(store.save(preset('Notes')))
    expect(error.code).toBe('conflict')
    expect(error.message).toContain(`"Notes" would be saved as ${store.fileOf('notes')}, where a file that is not a readable preset already is`)
    expect(await fs.readFile(store.fileOf('notes'), 'utf8')).toBe('my notes')
  })

  it('lets concurrent saves of the same name through one at a time: one wins, the other is refused', async () => {
    const store = new PresetsStore(dataDir)
    const results = await Promise.allSettled([store.save(preset('Race', 'vm-a')), store.save(preset('Race', 'vm-b'))])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected'])
    expect((await store.get('race')).preset.plan.variants[0]?.target).toBe('vm-a')
  })

  it('lists by name (case and accents aside, numbers in order), and reports unreadable files without hiding the others', async () => {
    const store = new PresetsStore(dataDir)
    for (const name of ['beta', 'Alpha 10', 'alpha 9', 'Ärger']) await store.save(preset(name))
    await fs.writeFile(store.fileOf('broken'), '{ not json')
    await fs.writeFile(path.join(store.dir, '.half-written.json.tmp'), '{')
    await fs.writeFile(path.join(store.dir, 'README.txt'), 'not a preset')
    const { presets, problems } = await store.list()
    expect(presets.map((p) => [p.slug, p.preset.plan.name])).toEqual([
      ['alpha-9', 'alpha 9'],
      ['alpha-10', 'Alpha 10'],
      ['arger', 'Ärger'],
      ['beta', 'beta']
    ])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(new RegExp(`^${store.fileOf('broken').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not JSON: `))
  })

  it('renames: a new name, a new file, the old one gone; refuses to take another preset\'s file', async () => {
    const store = new PresetsStore(dataDir)
    await store.save(preset('First'))
    await store.save(preset('Second'))
    const renamed = await store.rename('first', 'Primary')
    expect(renamed.slug).toBe('primary')
    expect(renamed.preset.plan.name).toBe('Primary')
    expect((await store.list()).presets.map((p) => p.slug)).toEqual(['primary', 'second'])

    const taken = await refusal(store.rename('primary', 'SECOND'))
    expect(taken.code).toBe('conflict')
    expect(taken.message).toContain('The preset "Second" is already saved as second.json')
    expect((await store.list()).presets.map((p) => p.slug)).toEqual(['primary', 'second'])

    const recased = await store.rename('second', 'SECOND')
    expect(recased.slug).toBe('second')
    expect((await store.get('second')).preset.plan.name).toBe('SECOND')
  })

  it('removes a preset, and says when there is none', async () => {
    const store = new PresetsStore(dataDir)
    await store.save(preset('Gone soon'))
    await store.remove('gone-soon')
    expect((await store.list()).presets).toEqual([])
    const missing = await refusal(store.remove('gone-soon'))
    expect(missing.code).toBe('not-found')
    expect(missing.message).toBe(`There is no saved preset "gone-soon" (${store.fileOf('gone-soon')}); it may have been removed or renamed.`)
    expect((await refusal(store.get('gone-soon'))).code).toBe('not-found')
  })

  it('refuses slugs that are not slugs, so no path leaves the presets folder', async () => {
    const store = new PresetsStore(dataDir)
    await fs.writeFile(path.join(dataDir, 'targets.json'), '{}')
    for (const slug of ['../targets', '..', 'a/b', 'A']) {
      const error = await refusal(store.get(slug))
      expect(error.code).toBe('invalid')
      await refusal(store.remove(slug))
    }
    expect(await fs.readFile(path.join(dataDir, 'targets.json'), 'utf8')).toBe('{}')
  })

  it('refuses an invalid preset or one holding a secret, writing nothing', async () => {
    const store = new PresetsStore(dataDir)
    const invalid = await refusal(store.save({ ...preset('Bad'), plan: { ...preset('Bad').plan, variants: [] } }))
    expect(invalid.code).toBe('invalid')
    expect(invalid.message).toContain('plan.variants: a comparison needs at least one variant')
    const secret = preset('Leaky')
    ;(secret.plan.baseline as Record<string, unknown>).password = 'x'
    const leaky = await refusal(store.save(secret))
    expect(leaky.message).toContain('plan.baseline.password')
    expect((await store.list()).presets).toEqual([])
  })

  it('reads a preset it finds broken on disk as invalid, naming the problem', async () => {
    const store = new PresetsStore(dataDir)
    const saved = await store.save(preset('Edited by hand'))
    const doc = JSON.parse(await fs.readFile(saved.file, 'utf8')) as { plan: { aggregate: string } }
    doc.plan.aggregate = 'max'
    await fs.writeFile(saved.file, JSON.stringify(doc))
    const error = await refusal(store.get(saved.slug))
    expect(error.code).toBe('invalid')
    expect(error.message).toContain('plan.aggregate: expected one of median, mean, best, found "max"')
  })
})
