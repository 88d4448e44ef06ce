import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type ReactElement } from 'react'
import { utf8ByteLength } from '../../../../shared/byte-limit'
import type { Preset } from '../../../../shared/model/plan'
import type { PresetSummary } from '../../../../shared/presets-contract'
import { PageHeader } from '../../components/empty-state'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'
import { downloadText } from '../../lib/download'
import { ImportError, importRefusal, presetFileSizeProblem, type ImportRefusal } from './import-problems'
import { PresetCard } from './preset-card'
import { DeletePresetDialog, DuplicatePresetDialog } from './preset-dialogs'
import './presets.css'

type OpenDialog = { kind: 'duplicate'; preset: PresetSummary } | { kind: 'delete'; preset: PresetSummary } | undefined

/** What the page last did, with what can still be done about it. */
type Outcome =
  | { kind: 'deleted'; name: string; document: Preset; error?: string }
  | { kind: 'imported'; name: string }
  | { kind: 'failed'; message: string }
  | undefined

/** What a search for `query` looks through: names, targets, tests and the description. */
function matches(preset: PresetSummary, query: string): boolean {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean)
  const text = [preset.name, preset.description ?? '', preset.baseline, ...preset.variants, ...preset.tests, preset.builtin ? 'study' : '']
    .join(' ')
    .toLocaleLowerCase()
  return words.every((word) => text.includes(word))
}

export function PresetsPage(): ReactElement {
  const api = useAppStore((s) => s.api)
  const presets = useAppStore((s) => s.presets)
  const problems = useAppStore((s) => s.presetProblems)
  const loadError = useAppStore((s) => s.presetsError)
  const loadPresets = useAppStore((s) => s.loadPresets)
  const getPreset = useAppStore((s) => s.getPreset)
  const exportPreset = useAppStore((s) => s.exportPreset)
  const importPreset = useAppStore((s) => s.importPreset)
  const savePresetDocument = useAppStore((s) => s.savePresetDocument)
  const loadPlan = useAppStore((s) => s.loadPlan)
  const [query, setQuery] = useState('')
  const [dialog, setDialog] = useState<OpenDialog>()
  const [outcome, setOutcome] = useState<Outcome>()
  const [importError, setImportError] = useState<ImportRefusal>()
  const [importing, setImporting] = useState(false)
  const [busy, setBusy] = useState<{ id: string; what: string }>()
  const [focusId, setFocusId] = useState<string>()
  const undoRef = useRef<HTMLButtonElement>(null)
  const searchId = useId()
  const importErrorId = useId()

  useEffect(() => {
    if (api) void loadPresets()
  }, [api, loadPresets])

  useEffect(() => {
    if (outcome?.kind === 'deleted') undoRef.current?.focus()
  }, [outcome])

  const shown = useMemo(() => (presets ?? []).filter((p) => matches(p, query)), [presets, query])
  const saved = shown.filter((p) => !p.builtin)
  const study = shown.filter((p) => p.builtin)

  const open = async (preset: PresetSummary): Promise<void> => {
    setBusy({ id: preset.id, what: 'Opening…' })
    try {
      const loaded = await getPreset(preset.id)
      loadPlan(loaded.preset.plan, { presetId: preset.id, name: loaded.summary.name })
    } catch (problem) {
      setOutcome({ kind: 'failed', message: `“${preset.name}” could not be opened: ${apiMessage(problem)}` })
    } finally {
      setBusy(undefined)
    }
  }

  const exportFile = async (preset: PresetSummary): Promise<void> => {
    setBusy({ id: preset.id, what: 'Exporting…' })
    try {
      const file = await exportPreset(preset.id)
      downloadText(file.fileName, file.text)
    } catch (problem) {
      setOutcome({ kind: 'failed', message: `“${preset.name}” could not be exported: ${apiMessage(problem)}` })
    } finally {
      setBusy(undefined)
    }
  }

  const importFile = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const input = event.currentTarget
    const file = input.files?.[0]
    if (!file) return
    setImportError(undefined)
    setOutcome(undefined)
    const tooLarge = presetFileSizeProblem(file.size)
    if (tooLarge) {
      setImportError({ fileName: file.name, message: tooLarge })
      input.value = ''
      return
    }
    setImporting(true)
    try {
      const text = await file.text()
      if (text.trim() === '') throw new Error('The file is empty.')
      // bytes that are not UTF-8 are read as U+FFFD, three bytes each: the text can outgrow the file
      const textTooLarge = presetFileSizeProblem(utf8ByteLength(text))
      if (textTooLarge) throw new Error(textTooLarge)
      const summary = await importPreset(text, file.name)
      setOutcome({ kind: 'imported', name: summary.name })
      setQuery('')
      setFocusId(summary.id)
    } catch (problem) {
      setImportError(importRefusal(file.name, problem))
    } finally {
      setImporting(false)
      // The same file can be chosen again after it was fixed.
      input.value = ''
    }
  }

  const undoDelete = async (): Promise<void> => {
    if (outcome?.kind !== 'deleted') return
    try {
      const summary = await savePresetDocument(outcome.document)
      setOutcome(undefined)
      setFocusId(summary.id)
    } catch (problem) {
      setOutcome({ ...outcome, error: apiMessage(problem) })
    }
  }

  const cardActions = {
    onOpen: (p: PresetSummary) => void open(p),
    onExport: (p: PresetSummary) => void exportFile(p),
    onDuplicate: (p: PresetSummary) => setDialog({ kind: 'duplicate', preset: p }),
    onDelete: (p: PresetSummary) => setDialog({ kind: 'delete', preset: p }),
    onRenamed: (p: PresetSummary) => setFocusId(p.id)
  }

  const cards = (list: PresetSummary[]): ReactElement => (
    <ul className="presets-list">
      {list.map((preset) => (
        <li key={preset.id}>
          <PresetCard preset={preset} busy={busy?.id === preset.id ? busy.what : undefined} focus={focusId === preset.id} {...cardActions} />
        </li>
      ))}
    </ul>
  )

  return (
    <div className="page page-wide presets-page">
      <div className="page-header-row">
        <PageHeader
          title="Presets"
          lead="Comparisons to run again: the same targets, scenarios, tests and repetitions, so that this release’s numbers compare with the last one’s. Presets name targets; they never hold passwords or keys."
        />
        <div className="toolbar">
          <label className="button presets-import-button" aria-disabled={importing || !api ? true : undefined}>
            {importing ? 'Importing…' : 'Import .json…'}
            <input
              type="file"
              accept=".json,application/json"
              className="visually-hidden"
              aria-label="Import a preset file (.json)"
              aria-describedby={importError ? importErrorId : undefined}
              disabled={importing || !api}
              onChange={(e) => void importFile(e)}
            />
          </label>
        </div>
      </div>

      {importError ? <ImportError id={importErrorId} refusal={importError} /> : null}

      <div className="presets-outcome" aria-live="polite">
        {outcome?.kind === 'deleted' ? (
          <div className="banner" role="status">
            <span>
              Deleted <strong>{outcome.name}</strong>.
            </span>
            <button ref={undoRef} type="button" className="button button-small" onClick={() => void undoDelete()}>
              Undo
            </button>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setOutcome(undefined)}>
              ×
            </button>
            {outcome.error ? <span className="banner-note field-error">Not restored: {outcome.error}</span> : null}
          </div>
        ) : outcome?.kind === 'imported' ? (
          <div className="banner" role="status">
            <span>
              Imported <strong>{outcome.name}</strong>.
            </span>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setOutcome(undefined)}>
              ×
            </button>
          </div>
        ) : outcome?.kind === 'failed' ? (
          <div className="banner banner-error" role="alert">
            <span>{outcome.message}</span>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setOutcome(undefined)}>
              ×
            </button>
          </div>
        ) : null}
      </div>

      {problems.length > 0 ? (
        <details className="banner banner-warning presets-problems">
          <summary>
            {problems.length === 1
              ? 'One file in the presets folder is not a readable preset (left as it is)'
              : `${problems.length} files in the presets folder are not readable presets (left as they are)`}
          </summary>
          <ul>
            {problems.map((problem, index) => (
              <li key={index}>{problem}</li>
            ))}
          </ul>
        </details>
      ) : null}

      {loadError && presets === undefined ? (
        <div className="banner banner-error" role="alert">
          <strong>The presets could not be loaded.</strong> {loadError}{' '}
          <button type="button" className="button button-small" onClick={() => void loadPresets()}>
            Try again
          </button>
        </div>
      ) : presets === undefined ? (
        <p className="muted">Loading presets…</p>
      ) : (
        <>
          <div className="presets-search">
            <label htmlFor={searchId}>Search presets</label>
            <input
              id={searchId}
              type="search"
              value={query}
              placeholder="Name, target or test"
              autoComplete="off"
              onChange={(e) => setQuery(e.target.value)}
            />
            <span className="muted" role="status">
              {query.trim() ? `${shown.length} of ${presets.length} presets match` : ''}
            </span>
          </div>

          {query.trim() && shown.length === 0 ? (
            <p className="muted">No preset matches “{query.trim()}”.</p>
          ) : (
            <>
              <section aria-labelledby={`${searchId}-saved`} className="presets-section">
                <h2 id={`${searchId}-saved`}>Saved presets</h2>
                {saved.length > 0 ? (
                  cards(saved)
                ) : query.trim() ? (
                  <p className="muted">No saved preset matches.</p>
                ) : (
                  <p className="presets-empty">
                    <strong>No saved presets yet.</strong> Build a comparison in the wizard and save it as a preset from its review step,
                    duplicate a study preset below, or import a .json file a colleague sent you.
                  </p>
                )}
              </section>
              {study.length > 0 ? (
                <section aria-labelledby={`${searchId}-study`} className="presets-section">
                  <h2 id={`${searchId}-study`}>Study presets</h2>
                  <p className="muted presets-section-lead">
                    One per study VirtBench reproduces, shipped with it. Their target names are the studies’ own: add targets with those
                    names, or duplicate a preset and change them in the wizard.
                  </p>
                  {cards(study)}
                </section>
              ) : null}
            </>
          )}
        </>
      )}

      {dialog?.kind === 'duplicate' ? (
        <DuplicatePresetDialog
          preset={dialog.preset}
          onClose={() => setDialog(undefined)}
          onDuplicated={(copy) => {
            setDialog(undefined)
            setQuery('')
            setFocusId(copy.id)
          }}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeletePresetDialog
          preset={dialog.preset}
          onClose={() => setDialog(undefined)}
          onDeleted={(document) => {
            setDialog(undefined)
            setOutcome({ kind: 'deleted', name: dialog.preset.name, document })
          }}
        />
      ) : null}
    </div>
  )
}
