// Writes resources/presets/preset.schema.json and the field table of docs/presets.md from the
// preset model: `npm run presets:schema`.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { withPresetFields } from '../src/main/presets/fields-doc'
import { PRESET_SCHEMA_FILE, presetJsonSchema, renderPresetJsonSchema } from '../src/main/presets/schema'

const root = path.resolve(__dirname, '..')
const schemaFile = path.join(root, 'resources/presets', PRESET_SCHEMA_FILE)
writeFileSync(schemaFile, renderPresetJsonSchema())
console.log(`wrote ${path.relative(process.cwd(), schemaFile)}`)

const docFile = path.join(root, 'docs/presets.md')
writeFileSync(docFile, withPresetFields(readFileSync(docFile, 'utf8'), presetJsonSchema()))
console.log(`wrote the field table of ${path.relative(process.cwd(), docFile)}`)
