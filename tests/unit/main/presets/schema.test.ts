import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PRESET_KIND, PRESET_VERSION } from '../../../../src/shared/model/plan'
import { FIELDS_BEGIN, FIELDS_END, renderPresetFields, withPresetFields } from '../../../../src/main/presets/fields-doc'
import { PRESET_SCHEMA_COMMAND, PRESET_SCHEMA_FILE, PRESET_SCHEMA_ID, presetJsonSchema, renderPresetJsonSchema } from '../../../../src/main/presets/schema'

const committed = path.resolve(__dirname, '../../../../resources/presets', PRESET_SCHEMA_FILE)
const presetsDoc = path.resolve(__dirname, '../../../../docs/presets.md')

type Node = Record<string, unknown>

/** Every schema node that constrains a value, with its JSON pointer. */
function valueNodes(node: unknown, at = '#'): { at: string; node: Node }[] {
  if (typeof node !== 'object' || node === null) return []
  const found: { at: string; node: Node }[] = []
  const n = node as Node
  if ('type' in n || 'anyOf' in n || 'oneOf' in n) found.push({ at, node: n })
  for (const [key, child] of Object.entries(n)) {
    if (key === 'default' || key === 'enum' || key === 'const' || key === 'required') continue
    if (Array.isArray(child)) child.forEach((c, i) => found.push(...valueNodes(c, `${at}/${key}/${i}`)))
    else found.push(...valueNodes(child, `${at}/${key}`))
  }
  return found
}

describe('the preset JSON Schema', () => {
  it(`is current in resources/presets (${PRESET_SCHEMA_COMMAND} rewrites it)`, () => {
    const text = readFileSync(committed, 'utf8')
    const fresh = renderPresetJsonSchema()
    if (text !== fresh) {
      expect.fail(`resources/presets/${PRESET_SCHEMA_FILE} is stale: the preset model changed since it was written. Run ${PRESET_SCHEMA_COMMAND} and commit the result.`)
    }
  })

  it('names itself and the draft it follows', () => {
    const schema = presetJsonSchema()
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(schema.$id).toBe(PRESET_SCHEMA_ID)
    expect(schema.title).toBe(`VirtBench preset (version ${PRESET_VERSION})`)
    expect(String(schema.description)).toContain('never holds a password')
    // $schema, $id, title and description come first, so a person opening the file sees them
    expect(Object.keys(schema).slice(0, 4)).toEqual(['$schema', '$id', 'title', 'description'])
  })

  it('pins kind and version, and refuses unknown fields as the model does', () => {
    const schema = presetJsonSchema() as { properties: Record<string, Node>; required: string[]; additionalProperties: boolean }
    expect(schema.properties.kind?.const).toBe(PRESET_KIND)
    expect(schema.properties.version?.const).toBe(PRESET_VERSION)
    expect(schema.required).toEqual(['kind', 'version', 'plan'])
    expect(schema.additionalProperties).toBe(false)
    expect(schema.properties).not.toHaveProperty('$schema')
  })

  it('treats defaulted fields as optional (io: input)', () => {
    const plan = (presetJsonSchema() as { properties: { plan: { required: string[]; properties: Record<string, Node> } } }).properties.plan
    expect(plan.required).toEqual(['name', 'baseline', 'variants', 'tests'])
    expect(plan.properties.repetitions?.default).toBe(3)
    expect(plan.properties.aggregate?.default).toBe('median')
    expect(plan.properties.storage?.default).toEqual({ kind: 'directory', path: '~/virtbench-work' })
  })

  it('describes every field (editors show these; docs/presets.md is written from them)', () => {
    const undescribed = valueNodes(presetJsonSchema())
      .filter(({ at, node }) => node.description === undefined && !at.endsWith('/propertyNames'))
      .map(({ at }) => at)
    expect(undescribed).toEqual([])
  })

  it('keeps a description the model wrote over the generator\'s own', () => {
    const plan = (presetJsonSchema() as { properties: { plan: { properties: { baseline: { properties: { target: Node } } } } } }).properties.plan
    expect(plan.properties.baseline.properties.target.description).toBe('The machine that is 100 %: usually the physical host')
  })
})

describe('the field table of docs/presets.md', () => {
  it(`is current (${PRESET_SCHEMA_COMMAND} rewrites it)`, () => {
    const text = readFileSync(presetsDoc, 'utf8')
    if (text !== withPresetFields(text, presetJsonSchema())) {
      expect.fail(`the field table of docs/presets.md is stale: the preset model changed since it was written. Run ${PRESET_SCHEMA_COMMAND} and commit the result.`)
    }
  })

  it('has one row per field, each form of a union in turn', () => {
    const table = renderPresetFields(presetJsonSchema())
    const fields = table.split('\n').slice(2).map((line) => line.split(' | ')[0]?.replace(/^\| `|`$/g, ''))
    expect(fields.slice(0, 4)).toEqual(['kind', 'version', 'description', 'plan'])
    expect(fields).toContain('plan.variants[].scenario.cache')
    expect(fields).toContain('plan.tests[] (with pack)')
    expect(fields).toContain('plan.tests[] (with id)')
    expect(fields).toContain('plan.storage (kind "device")')
    expect(fields).toContain('plan.storage.confirm')
    expect(table).toContain('| `plan.repetitions` | whole number 1 to 100 | `3` |')
    expect(table).toContain('| `plan.storage.confirm` | text, **required** |  | The device path typed again')
  })

  it('refuses a document that lost its markers rather than writing the table somewhere', () => {
    expect(() => withPresetFields('# Presets\n', presetJsonSchema())).toThrow('lost its field table markers')
    expect(withPresetFields(`a\n${FIELDS_BEGIN}\nold\n${FIELDS_END}\nb`, presetJsonSchema())).toMatch(/^a\n<!-- fields:begin [^\n]*-->\n\| field \| type \| default \| meaning \|[\s\S]*\n<!-- fields:end -->\nb$/)
  })
})
