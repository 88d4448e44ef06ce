import { useId, type ReactElement } from 'react'
import { describedByOf, FieldMessages } from '../../components/field'
import { fieldId, humanField } from '../../models/wizard-draft'
import { typedNumber } from '../../lib/typed-number'
import { JobFileBox } from './job-file-box'

/**
 * A custom test's parameters, as a form generated from the tool's JSON Schema (catalog:get):
 * a select per enum, a checkbox per boolean, number and text inputs with the schema's bounds and
 * defaults, checkboxes for a list of choices. What main's review says about a parameter is shown
 * beside it. Raw devices are not chosen here but in "Where tests write", where they are confirmed.
 */

export interface JsonSchemaProp {
  type?: string | string[]
  enum?: unknown[]
  default?: unknown
  description?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  anyOf?: JsonSchemaProp[]
  items?: JsonSchemaProp
  minItems?: number
  maxItems?: number
}

/** Parameters that name a raw device: the plan's storage setting does that, with its confirmation. */
export const DEVICE_PARAMS = new Set(['device', 'deviceWriteConfirmed'])

type Kind =
  | { kind: 'enum'; values: string[] }
  | { kind: 'boolean' }
  | { kind: 'number'; integer: boolean; min?: number; max?: number }
  | { kind: 'string' }
  | { kind: 'multi'; values: string[] }
  | { kind: 'list'; numbers: boolean }
  | { kind: 'json' }

function typeOf(prop: JsonSchemaProp): string | undefined {
  return Array.isArray(prop.type) ? prop.type.find((t) => t !== 'null') : prop.type
}

/** What control a property gets, and whether it may be null. */
export function controlOf(prop: JsonSchemaProp): { control: Kind; nullable: boolean } {
  let base = prop
  let nullable = Array.isArray(prop.type) && prop.type.includes('null')
  if (prop.anyOf) {
    const others = prop.anyOf.filter((p) => p.type !== 'null')
    nullable = others.length < prop.anyOf.length
    if (others.length !== 1 || !others[0]) return { control: { kind: 'json' }, nullable }
    base = { ...others[0], default: prop.default, description: prop.description }
  }
  const type = typeOf(base)
  if (base.enum && base.enum.every((v) => typeof v === 'string')) return { control: { kind: 'enum', values: base.enum as string[] }, nullable }
  if (type === 'boolean') return { control: { kind: 'boolean' }, nullable }
  if (type === 'integer' || type === 'number') {
    return { control: { kind: 'number', integer: type === 'integer', min: base.minimum, max: base.maximum }, nullable }
  }
  if (type === 'string') return { control: { kind: 'string' }, nullable }
  if (type === 'array' && base.items) {
    const items = base.items
    if (items.enum && items.enum.every((v) => typeof v === 'string')) return { control: { kind: 'multi', values: items.enum as string[] }, nullable }
    const itemType = typeOf(items)
    if (itemType === 'integer' || itemType === 'number') return { control: { kind: 'list', numbers: true }, nullable }
    if (itemType === 'string') return { control: { kind: 'list', numbers: false }, nullable }
  }
  return { control: { kind: 'json' }, nullable }
}

function propertiesOf(schema: Record<string, unknown>): [string, JsonSchemaProp][] {
  const properties = schema.properties
  if (!properties || typeof properties !== 'object') return []
  return Object.entries(properties as Record<string, JsonSchemaProp>).filter(([key]) => !DEVICE_PARAMS.has(key))
}


function displayOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (Array.isArray(value)) return value.join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

export function ParamsForm({
  base,
  schema,
  params,
  errorAt,
  onChange
}: {
  /** The plan path of the params: 'tests.2.params'. */
  base: string
  schema: Record<string, unknown>
  params: Record<string, unknown>
  errorAt: (path: string) => string | undefined
  onChange: (params: Record<string, unknown>) => void
}): ReactElement {
  const props = propertiesOf(schema)
  const set = (key: string, value: unknown): void => {
    const next = { ...params }
    if (value === undefined) delete next[key]
    else next[key] = value
    onChange(next)
  }
  // Main's messages about the parameters as a whole, or about one this form does not show.
  const shownKeys = new Set(props.map(([key]) => key))
  const other = Object.keys(params)
    .filter((key) => !shownKeys.has(key))
    .map((key) => ({ key, message: errorAt(`${base}.${key}`) }))
    .filter((x) => x.message)
  const whole = errorAt(base)

  return (
    <div className="wiz-params">
      {whole || other.length > 0 ? (
        <ul className="wiz-params-problems" id={fieldId(base)} tabIndex={-1}>
          {whole ? <li className="field-error">{whole}</li> : null}
          {other.map((x) => (
            <li key={x.key} className="field-error">
              {x.key}: {x.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="wiz-params-grid">
        {props.map(([key, prop]) => (
          key === 'jobFile' ? <JobFileBox key={key} path={`${base}.${key}`} value={params[key]} error={errorAt(`${base}.${key}`)} onChange={(v) => set(key, v)} /> :
          <ParamField key={key} path={`${base}.${key}`} name={key} prop={prop} value={params[key]} error={errorAt(`${base}.${key}`)} onChange={(v) => set(key, v)} />
        ))}
      </div>
    </div>
  )
}

function ParamField({
  path,
  name,
  prop,
  value,
  error,
  onChange
}: {
  path: string
  name: string
  prop: JsonSchemaProp
  value: unknown
  error: string | undefined
  onChange: (value: unknown) => void
}): ReactElement {
  const { control, nullable } = controlOf(prop)
  const id = fieldId(path)
  const nullId = useId()
  // People's words; the tool's own name of the parameter (timeBased) on demand, in the title
  const label = humanField(name) === name ? <>{name}</> : <span title={`${name} (the tool's parameter)`}>{humanField(name)}</span>
  const described = prop.description ? (/[.!?)]$/.test(prop.description) ? prop.description : `${prop.description}.`) : undefined
  const hint = [described, prop.default !== undefined ? `Default: ${displayOf(prop.default) || 'none'}.` : undefined].filter(Boolean).join(' ')
  const describedBy = describedByOf(id, error, hint)
  const common = { id, 'aria-describedby': describedBy, 'aria-invalid': error ? (true as const) : undefined }
  const isNull = value === null

  if (control.kind === 'boolean') {
    return (
      <div className={['field', 'wiz-param-check', error ? 'field-invalid' : undefined].filter(Boolean).join(' ')}>
        <label className="check">
          <input {...common} type="checkbox" checked={value === undefined ? prop.default === true : value === true} onChange={(e) => onChange(e.target.checked)} />
          <span>{label}</span>
        </label>
        <FieldMessages id={id} error={error} hint={hint} />
      </div>
    )
  }

  if (control.kind === 'multi') {
    const chosen = Array.isArray(value) ? value.map(String) : Array.isArray(prop.default) ? prop.default.map(String) : []
    return (
      <fieldset className={['wiz-group', 'wiz-param-multi', error ? 'field-invalid' : undefined].filter(Boolean).join(' ')} id={id} tabIndex={-1} aria-describedby={describedBy}>
        <legend>{label}</legend>
        <div className="wiz-param-options">
          {control.values.map((option) => (
            <label key={option} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(option)}
                onChange={(e) => onChange(e.target.checked ? control.values.filter((v) => v === option || chosen.includes(v)) : chosen.filter((v) => v !== option))}
              />
              <span className="mono">{option}</span>
            </label>
          ))}
        </div>
        <FieldMessages id={id} error={error} hint={hint} />
      </fieldset>
    )
  }

  const input = (() => {
    if (control.kind === 'enum') {
      return (
        <select {...common} value={typeof value === 'string' ? value : ''} disabled={isNull} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}>
          {prop.default === undefined || value === undefined ? <option value="">{prop.default === undefined ? 'not set' : `default (${displayOf(prop.default)})`}</option> : null}
          {control.values.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      )
    }
    if (control.kind === 'number') {
      return (
        <input
          {...common}
          type="text"
          inputMode={control.integer ? 'numeric' : 'decimal'}
          className="mono"
          value={isNull ? '' : displayOf(value)}
          disabled={isNull}
          placeholder={prop.default !== undefined && prop.default !== null ? displayOf(prop.default) : 'not set'}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value.trim() === '' ? undefined : typedNumber(e.target.value))}
        />
      )
    }
    if (control.kind === 'list') {
      return (
        <input
          {...common}
          type="text"
          className="mono"
          value={displayOf(value)}
          placeholder={prop.default !== undefined ? displayOf(prop.default) : 'comma-separated'}
          autoComplete="off"
          onChange={(e) => {
            const text = e.target.value
            if (text.trim() === '') return onChange(undefined)
            const items = text.split(',').map((s) => s.trim()).filter(Boolean)
            onChange(control.numbers ? items.map(typedNumber) : items)
          }}
        />
      )
    }
    if (control.kind === 'json') {
      return (
        <input
          {...common}
          type="text"
          className="mono"
          value={isNull ? '' : typeof value === 'string' ? value : displayOf(value)}
          disabled={isNull}
          autoComplete="off"
          onChange={(e) => {
            const text = e.target.value
            if (text.trim() === '') return onChange(undefined)
            try {
              onChange(JSON.parse(text))
            } catch {
              onChange(text)
            }
          }}
        />
      )
    }
    return (
      <input
        {...common}
        type="text"
        className="mono"
        value={isNull ? '' : typeof value === 'string' ? value : displayOf(value)}
        disabled={isNull}
        placeholder={typeof prop.default === 'string' ? prop.default : 'not set'}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
    )
  })()

  return (
    <div className={['field', error ? 'field-invalid' : undefined].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {input}
      {nullable ? (
        <label className="check wiz-param-null" htmlFor={nullId}>
          <input id={nullId} type="checkbox" checked={isNull} onChange={(e) => onChange(e.target.checked ? null : prop.default === null ? undefined : prop.default)} />
          <span>No {humanField(name)}</span>
        </label>
      ) : null}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}
