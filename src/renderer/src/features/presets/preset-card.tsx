import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactElement } from 'react'
import type { Preset } from '../../../../shared/model/plan'
import { describeScenario } from '../../../../shared/model/scenario'
import type { PresetSummary } from '../../../../shared/presets-contract'
import { describedByOf, FieldMessages } from '../../components/field'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'

const modifiedFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export interface PresetCardActions {
  onOpen: (preset: PresetSummary) => void
  onDuplicate: (preset: PresetSummary) => void
  onExport: (preset: PresetSummary) => void
  onDelete: (preset: PresetSummary) => void
  onRenamed: (renamed: PresetSummary) => void
}

/**
 * One preset: its name, what it compares (baseline, variants, tests), when it last changed, the
 * whole plan one click away, and what can be done with it. Study presets are read-only.
 */
export function PresetCard({
  preset,
  busy,
  focus,
  ...actions
}: PresetCardActions & {
  preset: PresetSummary
  /** What is under way for this preset ("Opening…", "Exporting…"), if anything. */
  busy?: string
  /** Moves the keyboard focus to this card's title (after it was renamed, duplicated or imported). */
  focus?: boolean
}): ReactElement {
  const [renaming, setRenaming] = useState(false)
  const titleRef = useRef<HTMLHeadingElement>(null)
  const renameRef = useRef<HTMLButtonElement>(null)
  const titleId = useId()

  useEffect(() => {
    if (focus) titleRef.current?.focus()
  }, [focus])

  return (
    <article className="card presets-card" aria-labelledby={titleId} aria-busy={busy ? true : undefined}>
      {renaming ? (
        <RenameForm
          preset={preset}
          onRenamed={(renamed) => {
            setRenaming(false)
            actions.onRenamed(renamed)
          }}
          onCancel={() => {
            setRenaming(false)
            // The button is back in the next render.
            setTimeout(() => renameRef.current?.focus(), 0)
          }}
        />
      ) : null}
      <header className="presets-card-head" hidden={renaming}>
        <h3 id={titleId} ref={titleRef} tabIndex={-1}>
          {preset.name}
        </h3>
        {preset.builtin ? <span className="chip presets-study-chip">Study preset</span> : null}
      </header>
      {preset.description ? <p className="presets-description">{preset.description}</p> : null}
      <dl className="presets-facts">
        <dt>Baseline</dt>
        <dd>
          <span className="chip">{preset.baseline}</span> <span className="muted">100 %</span>
        </dd>
        <dt>{preset.variants.length === 1 ? 'Variant' : `Variants (${preset.variants.length})`}</dt>
        <dd>
          <ul className="chips">
            {preset.variants.map((variant) => (
              <li key={variant} className="chip">
                {variant}
              </li>
            ))}
          </ul>
        </dd>
        <dt>{preset.tests.length === 1 ? 'Test' : `Tests (${preset.tests.length})`}</dt>
        <dd>
          <ul className="chips">
            {preset.tests.map((test, index) => (
              <li key={`${test}-${index}`} className="chip">
                {test}
              </li>
            ))}
          </ul>
        </dd>
        <dt>Modified</dt>
        <dd>
          {preset.modifiedAt ? (
            <time dateTime={preset.modifiedAt}>{modifiedFormat.format(new Date(preset.modifiedAt))}</time>
          ) : preset.builtin ? (
            <span className="muted">Shipped with VirtBench (read-only: duplicate it to change it)</span>
          ) : (
            <span className="muted" title="The presets folder did not say when this file last changed">
              —
            </span>
          )}
        </dd>
      </dl>
      <PlanDetails preset={preset} />
      <div className="toolbar presets-actions">
        <button type="button" className="button button-primary" disabled={busy !== undefined} onClick={() => actions.onOpen(preset)}>
          Open in the wizard<span className="visually-hidden">: {preset.name}</span>
        </button>
        <button type="button" className="button" onClick={() => actions.onDuplicate(preset)}>
          Duplicate…<span className="visually-hidden"> {preset.name}</span>
        </button>
        <button type="button" className="button" disabled={busy !== undefined} onClick={() => actions.onExport(preset)}>
          Export .json<span className="visually-hidden">: {preset.name}</span>
        </button>
        {preset.builtin ? null : (
          <>
            <button ref={renameRef} type="button" className="button" onClick={() => setRenaming(true)}>
              Rename<span className="visually-hidden"> {preset.name}</span>
            </button>
            <button type="button" className="button button-quiet-danger" onClick={() => actions.onDelete(preset)}>
              Delete…<span className="visually-hidden"> {preset.name}</span>
            </button>
          </>
        )}
        {busy ? (
          <span className="muted presets-busy" role="status">
            {busy}
          </span>
        ) : null}
      </div>
    </article>
  )
}

/** The card's title as a text field: Enter saves, Escape puts the old name back. */
function RenameForm({
  preset,
  onRenamed,
  onCancel
}: {
  preset: PresetSummary
  onRenamed: (renamed: PresetSummary) => void
  onCancel: () => void
}): ReactElement {
  const renamePreset = useAppStore((s) => s.renamePreset)
  const [name, setName] = useState(preset.name)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const id = useId()
  const hint = 'The file is renamed after the new name.'

  useEffect(() => {
    inputRef.current?.focus()
    inputRef.current?.select()
  }, [])

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    const wanted = name.trim()
    if (!wanted) {
      setError('A preset needs a name.')
      return
    }
    if (wanted === preset.name) {
      onCancel()
      return
    }
    setBusy(true)
    try {
      onRenamed(await renamePreset(preset.id, wanted))
    } catch (problem) {
      setError(apiMessage(problem))
      setBusy(false)
      inputRef.current?.focus()
    }
  }

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.preventDefault()
      onCancel()
    }
  }

  return (
    <form className={['presets-rename', 'field', error ? 'field-invalid' : undefined].filter(Boolean).join(' ')} onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={id} className="visually-hidden">
        New name for {preset.name}
      </label>
      <div className="presets-rename-row">
        <input
          id={id}
          ref={inputRef}
          type="text"
          value={name}
          maxLength={120}
          autoComplete="off"
          aria-describedby={describedByOf(id, error, hint)}
          aria-invalid={error ? true : undefined}
          onKeyDown={onKeyDown}
          onChange={(e) => {
            setName(e.target.value)
            setError(undefined)
          }}
        />
        <button type="submit" className="button button-primary button-small" disabled={busy}>
          {busy ? 'Saving…' : 'Save name'}
        </button>
        <button type="button" className="button button-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <FieldMessages id={id} error={error} hint={hint} />
    </form>
  )
}

/** The rest of the plan (scenarios, repetitions, where tests write), read when first opened. */
function PlanDetails({ preset }: { preset: PresetSummary }): ReactElement {
  const getPreset = useAppStore((s) => s.getPreset)
  const [document, setDocument] = useState<Preset>()
  const [error, setError] = useState<string>()
  const [asked, setAsked] = useState(false)

  const load = (): void => {
    if (asked) return
    setAsked(true)
    getPreset(preset.id).then(
      (loaded) => setDocument(loaded.preset),
      (problem: unknown) => setError(apiMessage(problem))
    )
  }

  return (
    <details className="presets-details" onToggle={(e) => (e.currentTarget.open ? load() : undefined)}>
      <summary>The whole plan</summary>
      {error ? (
        <p className="field-error" role="alert">
          The plan could not be read: {error}
        </p>
      ) : document ? (
        <PlanFacts preset={document} />
      ) : (
        <p className="muted">Reading the preset…</p>
      )}
    </details>
  )
}

function PlanFacts({ preset }: { preset: Preset }): ReactElement {
  const { plan } = preset
  return (
    <dl className="facts presets-plan">
      <dt>Baseline</dt>
      <dd>
        {plan.baseline.target}
        {plan.baseline.label ? <span className="muted"> (shown as {plan.baseline.label})</span> : null}
      </dd>
      {plan.variants.map((variant, index) => (
        <VariantFact key={variant.target} index={index} target={variant.target} label={variant.label} scenario={describeScenario(variant.scenario)} />
      ))}
      <dt>Tests</dt>
      <dd>
        <ul className="presets-plain-list">
          {plan.tests.map((test, index) =>
            'pack' in test ? (
              <li key={index}>
                Study pack <code>{test.pack}</code>, {test.form === 'quick' ? 'quick (small sizes)' : 'full (as published)'}
                {test.only ? <>: only {test.only.join(', ')}</> : null}
              </li>
            ) : (
              <li key={index}>
                <code>{test.id}</code> with {test.tool}
                {test.title ? <> ({test.title})</> : null}
              </li>
            )
          )}
        </ul>
      </dd>
      <dt>Repetitions</dt>
      <dd>
        {plan.repetitions} of each test, the {plan.aggregate === 'best' ? 'best run' : plan.aggregate} compared
      </dd>
      <dt>Storage tests write</dt>
      <dd>
        {plan.storage.kind === 'directory' ? (
          <>
            in <code>{plan.storage.path}</code> on each target (files removed afterwards)
          </>
        ) : (
          <span className="cell-warn">
            <span aria-hidden="true">⚠ </span>onto the raw device <code>{plan.storage.path}</code> of each target: everything on it is
            destroyed
          </span>
        )}
      </dd>
      <dt>Network</dt>
      <dd>
        {plan.network.peer ? <>every target talks to {plan.network.peer}</> : 'baseline and variants talk to each other'}
        {plan.network.matrix ? '; every pair of targets too' : ''}
        {plan.network.simultaneous ? '; all clients at once as well' : ''}
      </dd>
      <dt>Order</dt>
      <dd>
        {plan.schedule.order === 'interleaved' ? 'interleaved (A B A B…)' : 'grouped by target'}
        {plan.schedule.parallelTargets ? ', targets in parallel' : ''}
      </dd>
    </dl>
  )
}

function VariantFact({ index, target, label, scenario }: { index: number; target: string; label?: string; scenario: string }): ReactElement {
  return (
    <>
      <dt>Variant {index + 1}</dt>
      <dd>
        {target}
        {label ? <span className="muted"> (shown as {label})</span> : null}
        {scenario ? <span className="cell-note">{scenario}</span> : <span className="cell-note">no scenario declared</span>}
      </dd>
    </>
  )
}
