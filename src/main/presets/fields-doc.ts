/**
 * The field table of docs/presets.md, written from the preset's JSON Schema (so from the model's
 * descriptions). `npm run presets:schema` rewrites it between the markers; a unit test fails
 * when it is stale.
 */

export const FIELDS_BEGIN = '<!-- fields:begin (written by npm run presets:schema from the model; do not edit by hand) -->'
export const FIELDS_END = '<!-- fields:end -->'

type JsonSchema = Record<string, unknown>

interface Row {
  field: string
  type: string
  required: boolean
  default?: unknown
  description: string
}

/** The markdown table: one row per field, nested fields under their parent, each form of a union in turn. */
export function renderPresetFields(schema: JsonSchema): string {
  const rows: Row[] = []
  walk(schema, '', true, rows)
  const lines = ['| field | type | default | meaning |', '|---|---|---|---|']
  for (const row of rows) {
    const type = `${row.type}${row.required ? ', **required**' : ''}`
    const def = row.default === undefined ? '' : code(JSON.stringify(row.default))
    lines.push(`| ${code(row.field)} | ${cell(type)} | ${cell(def)} | ${cell(row.description)} |`)
  }
  return lines.join('\n')
}

/** Replaces the table between the markers in `doc`; throws when the markers are missing. */
export function withPresetFields(doc: string, schema: JsonSchema): string {
  const begin = doc.indexOf(FIELDS_BEGIN)
  const end = doc.indexOf(FIELDS_END)
  if (begin < 0 || end < begin) throw new Error(`docs/presets.md has lost its field table markers (${FIELDS_BEGIN} ... ${FIELDS_END})`)
  return `${doc.slice(0, begin + FIELDS_BEGIN.length)}\n${renderPresetFields(schema)}\n${doc.slice(end)}`
}

function walk(node: JsonSchema, at: string, required: boolean, rows: Row[]): void {
  const forms = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined
  if (at) {
    rows.push({
      field: at,
      type: forms ? `one of ${forms.length} forms (below)` : typeOf(node),
      required,
      ...(node.default !== undefined && { default: node.default }),
      description: String(node.description ?? '')
    })
  }
  if (forms) {
    for (const form of forms) {
      rows.push({ field: `${at} ${formName(form)}`, type: 'object', required: false, description: String(form.description ?? '') })
      walkProperties(form, at, rows)
    }
    return
  }
  if (node.type === 'array' && isSchema(node.items)) {
    const items = node.items
    if (items.type === 'object' || items.anyOf || items.oneOf) {
      if (items.anyOf || items.oneOf) walk(items, `${at}[]`, false, rows)
      else walkProperties(items, `${at}[]`, rows)
    }
    return
  }
  if (node.type === 'object') walkProperties(node, at, rows)
}

function walkProperties(node: JsonSchema, at: string, rows: Row[]): void {
  const properties = (node.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((node.required ?? []) as string[])
  for (const [key, child] of Object.entries(properties)) walk(child, at ? `${at}.${key}` : key, required.has(key), rows)
}

/** How a form of a union is told apart: its `kind`, else its first required field. */
function formName(form: JsonSchema): string {
  const properties = (form.properties ?? {}) as Record<string, JsonSchema>
  const kind = properties.kind?.const
  if (kind !== undefined) return `(kind ${JSON.stringify(kind)})`
  const first = ((form.required ?? []) as string[])[0]
  return first ? `(with ${first})` : '(form)'
}

function typeOf(node: JsonSchema): string {
  if (node.const !== undefined) return `always ${code(JSON.stringify(node.const))}`
  if (Array.isArray(node.enum)) return `one of ${node.enum.map((v) => code(String(v))).join(', ')}`
  switch (node.type) {
    case 'string': {
      const max = node.maxLength === undefined ? '' : `, at most ${String(node.maxLength)} characters`
      return `text${max}`
    }
    case 'integer':
    case 'number': {
      const word = node.type === 'integer' ? 'whole number' : 'number'
      if (node.minimum !== undefined && node.maximum !== undefined) return `${word} ${String(node.minimum)} to ${String(node.maximum)}`
      return word
    }
    case 'boolean':
      return '`true` or `false`'
    case 'array': {
      const items = isSchema(node.items) ? node.items : {}
      const what = items.anyOf || items.oneOf || items.type === 'object' ? 'objects' : typeOf(items)
      const min = node.minItems === undefined ? '' : ` (at least ${String(node.minItems)})`
      return `list of ${what}${min}`
    }
    case 'object':
      return node.properties ? 'object' : 'object (any fields)'
    default:
      return 'any'
  }
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function code(text: string): string {
  return `\`${text}\``
}

/** A markdown table cell: pipes escaped, one line. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}
