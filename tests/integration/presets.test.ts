import { promises as fs, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Ajv2020 from 'ajv/dist/2020'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACK_IDS } from '../../src/shared/model/tool-ids'
import { PRESET_KIND, PRESET_VERSION, type PresetInput } from '../../src/shared/model/plan'
import { listExamplePresets, readPresetFile, writePresetFile } from '../../src/main/presets/presets'
import { PRESET_SCHEMA_FILE, PRESET_SCHEMA_ID } from '../../src/main/presets/schema'
import { PresetsStore } from '../../src/main/presets/presets-store'

/**
 * The committed JSON Schema, as an editor or another program would use it, checked by a real
 * JSON Schema validator (Ajv, draft 2020-12) against the example presets and against what
 * VirtBench itself writes.
 */

const resources = path.resolve(__dirname, '../../resources')
const schema = JSON.parse(readFileSync(path.join(resources, 'presets', PRESET_SCHEMA_FILE), 'utf8')) as Record<string, unknown>
const ajv = new Ajv2020({ strict: true, allErrors: true })
const validate = ajv.compile(schema)

function errorsOf(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
}

let dir: string

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-presets-it-'))
})

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

const minimal = (): PresetInput => ({
  kind: PRESET_KIND,
  version: PRESET_VERSION,
  plan: { name: 'x', baseline: { target: 'phys-01' }, variants: [{ target: 'vm-a' }], tests: [{ pack: 'block-dd' }] }
})

describe('the committed preset JSON Schema, read by Ajv (draft 2020-12, strict)', () => {
  it('compiles and carries its $id', () => {
    expect(ajv.getSchema(PRESET_SCHEMA_ID)).toBe(validate)
  })

  it('accepts every example preset', async () => {
    const examples = await listExamplePresets(resources)
    expect(examples.map((e) => e.id)).toEqual([...PACK_IDS].sort())
    for (const example of examples) {
      const raw = JSON.parse(await fs.readFile(example.file, 'utf8')) as unknown
      expect(errorsOf(raw), example.id).toEqual([])
    }
  })

  it('accepts what VirtBench writes (defaults filled in) and what the store saves', async () => {
    for (const example of await listExamplePresets(resources)) {
      const file = path.join(dir, `${example.id}.json`)
      await writePresetFile(file, example.preset)
      expect(errorsOf(JSON.parse(await fs.readFile(file, 'utf8'))), example.id).toEqual([])
      expect(await readPresetFile(file)).toEqual(example.preset)
    }
    const store = new PresetsStore(dir)
    const saved = await store.save(minimal())
    expect(errorsOf(JSON.parse(await fs.readFile(saved.file, 'utf8')))).toEqual([])
  })

  it('accepts a minimal preset: every defaulted field is optional', () => {
    expect(errorsOf(minimal())).toEqual([])
  })

  it('refuses what the model refuses: a bad enum, an unknown field, a missing field, a $schema key', () => {
    const badCache = minimal()
    ;(badCache.plan.variants[0] as Record<string, unknown>).scenario = { cache: 'write-back' }
    expect(errorsOf(badCache)).toContain('/plan/variants/0/scenario/cache must be equal to one of the allowed values')

    expect(errorsOf({ ...minimal(), plan: { ...minimal().plan, repetitons: 3 } })).toContain('/plan must NOT have additional properties')
    const { baseline: _baseline, ...noBaseline } = minimal().plan
    expect(errorsOf({ ...minimal(), plan: noBaseline })).toContain("/plan must have required property 'baseline'")
    expect(errorsOf({ $schema: `./${PRESET_SCHEMA_FILE}`, ...minimal() })).toContain('/ must NOT have additional properties')
    expect(errorsOf({ ...minimal(), version: PRESET_VERSION + 1 })).toContain('/version must be equal to constant')
    // the model's Unicode patterns hold in JSON Schema too (\p{Cc}: control characters)
    expect(errorsOf({ ...minimal(), plan: { ...minimal().plan, name: 'tab\there' } })).toContain('/plan/name must match pattern "^[^\\p{Cc}]+$"')
  })

  it('cannot express every rule: a wrong device confirmation passes the schema, and VirtBench refuses it on reading', async () => {
    const doc = { ...minimal(), plan: { ...minimal().plan, storage: { kind: 'device', path: '/dev/vdb', confirm: '/dev/vdc' } } }
    expect(errorsOf(doc)).toEqual([])
    const file = path.join(dir, 'confirm.json')
    await fs.writeFile(file, JSON.stringify(doc))
    await expect(readPresetFile(file)).rejects.toThrow('plan.storage.confirm: a raw-device test destroys the data on the device')
  })
})
