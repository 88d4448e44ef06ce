import { useEffect, useState, type ReactElement } from 'react'
import { ApiCallError, type InvokeResponse } from '../../../../shared/contract'
import { formatValue } from '../../../../shared/format'
import type { ArchiveTool } from '../../../../shared/tool-archive-contract'
import { apiMessage } from '../../lib/api-message'
import type { ToolArchiveDraft } from '../../models/wizard-draft'
import { useAppStore } from '../../store'
import { connectedApi } from '../../store/connected-api'
import { WizardField } from './wizard-field'

type Checked = InvokeResponse<'tools:checkArchive'>
type Known = InvokeResponse<'tools:archives'>['tools'][number]

/** What main said of the file as it is typed now: its checksum and trust, or the field that is wrong. */
interface CheckState {
  /** The path and SHA-256 it is about. */
  of: string
  checking: boolean
  result?: Checked
  error?: { field: 'path' | 'sha256'; message: string }
}

const NAMES: Record<ArchiveTool, string> = { iozone: 'IOzone', unixbench: 'UnixBench' }

/**
 * "Bring from this computer", for each tool of the plan that is built from source on the targets
 * (docs/tools-offline.md): a file on the computer that runs main (the desktop app, or `virtbench
 * serve`) and its SHA-256. Main checks the file as it is given; runs:start and plans:preflight
 * carry it, and preflight says how each tool arrived. The path is this computer's: not in presets.
 */
export function ToolArchiveBox({ tools }: { tools: readonly ArchiveTool[] }): ReactElement | null {
  return tools.length === 0 ? null : <ToolArchives tools={tools} />
}

function ToolArchives({ tools }: { tools: readonly ArchiveTool[] }): ReactElement {
  const known = useKnownTools()
  return (
    <section aria-labelledby="wiz-tool-archives-heading" className="wiz-tool-archives">
      <h3 id="wiz-tool-archives-heading">Tools from this computer</h3>
      <p className="muted">
        {tools.map((t) => NAMES[t]).join(' and ')} {tools.length === 1 ? 'is' : 'are'} built from source on the targets. A target without internet gets{' '}
        {tools.length === 1 ? 'it' : 'them'} from a file here: VirtBench checks its SHA-256, uploads it, builds it with the target&apos;s compiler and keeps it there
        for the next run. Leave empty when the targets have the tool. The path is this computer&apos;s: presets do not keep it.
      </p>
      {tools.map((tool) => (
        <ToolArchiveField key={tool} tool={tool} known={known?.find((k) => k.tool === tool)} />
      ))}
    </section>
  )
}

/** The tools main can bring, with their pinned releases (asked once per wizard shown). */
function useKnownTools(): Known[] | undefined {
  const api = useAppStore((s) => s.api)
  const [known, setKnown] = useState<Known[] | undefined>()
  useEffect(() => {
    if (!api) return
    let live = true
    void api.invoke('tools:archives').then(
      (answer) => live && setKnown(answer.tools),
      () => live && setKnown([])
    )
    return () => {
      live = false
    }
  }, [api])
  return known
}

function ToolArchiveField({ tool, known }: { tool: ArchiveTool; known: Known | undefined }): ReactElement {
  const name = known?.name ?? NAMES[tool]
  const given = useAppStore((s) => s.wizardDraft.toolArchives?.[tool]) ?? { path: '', sha256: '' }
  const updateDraft = useAppStore((s) => s.updateDraft)
  const desktop = useAppStore((s) => s.info?.transport === 'ipc')
  const [check, setCheck] = useState<CheckState | undefined>()
  const key = `${given.path.trim()}\u0000${given.sha256.trim()}`
  const current = check?.of === key ? check : undefined

  const set = (change: Partial<ToolArchiveDraft>): void =>
    updateDraft((d) => ({ ...d, toolArchives: { ...d.toolArchives, [tool]: { ...given, ...change } } }))

  const runCheck = async (archive: ToolArchiveDraft): Promise<void> => {
    const path = archive.path.trim()
    const sha256 = archive.sha256.trim()
    const of = `${path}\u0000${sha256}`
    if (path === '') return setCheck(undefined)
    setCheck({ of, checking: true })
    try {
      const result = await connectedApi(useAppStore.getState()).invoke('tools:checkArchive', { tool, path, ...(sha256 ? { sha256 } : {}) })
      setCheck((c) => (c?.of === of ? { of, checking: false, result } : c))
    } catch (error) {
      const field = error instanceof ApiCallError && error.issues?.some((i) => i.path.endsWith('sha256')) ? 'sha256' : 'path'
      const message = error instanceof ApiCallError && error.issues?.[0] ? error.issues[0].message : apiMessage(error)
      setCheck((c) => (c?.of === of ? { of, checking: false, error: { field, message } } : c))
    }
  }

  const choose = async (): Promise<void> => {
    try {
      const { path } = await connectedApi(useAppStore.getState()).invoke('tools:chooseArchive', { tool })
      if (path === undefined) return
      set({ path })
      void runCheck({ ...given, path })
    } catch (error) {
      setCheck({ of: key, checking: false, error: { field: 'path', message: apiMessage(error) } })
    }
  }

  const pinned = known?.releases ?? []
  return (
    <fieldset className="wiz-tool-archive" aria-label={`${name}: bring from this computer`}>
      <legend>{name}: bring from this computer</legend>
      <p className="field-hint">
        {pinned.length > 0
          ? pinned.map((r) => (
              <span key={r.sha256}>
                Pinned release: {r.release} — <span className="mono">{r.file}</span>, SHA-256 <span className="mono">{r.sha256}</span>.{' '}
              </span>
            ))
          : known
            ? `No ${name} release is pinned: give the SHA-256 published with the file, or its checksum is recorded in the run.`
            : null}
      </p>
      <div className="wiz-tool-archive-path">
        <WizardField
          path={`toolArchives.${tool}.path`}
          label={`${name} source archive or program`}
          hint="Its absolute path on the computer that runs VirtBench (with virtbench serve: the computer it runs on). A .tar.gz, .tar.xz or .tar.bz2 of the source, or a program built for the targets."
          error={current?.error?.field === 'path' ? current.error.message : undefined}
        >
          {(control) => (
            <input
              {...control}
              type="text"
              className="mono"
              value={given.path}
              placeholder={pinned[0] ? `/home/you/Downloads/${pinned[0].file}` : '/home/you/Downloads/source.tar.gz'}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => set({ path: e.target.value })}
              onBlur={() => void runCheck(given)}
            />
          )}
        </WizardField>
        {desktop ? (
          <button type="button" className="button" onClick={() => void choose()} aria-label={`Choose the ${name} file`}>
            Choose…
          </button>
        ) : null}
      </div>
      <WizardField
        path={`toolArchives.${tool}.sha256`}
        label={`${name} SHA-256 (optional)`}
        hint={pinned.length > 0 ? 'Empty: the file must be the pinned release, or its checksum is recorded in the run.' : 'The one published with the file; empty: its checksum is recorded in the run.'}
        error={current?.error?.field === 'sha256' ? current.error.message : undefined}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            className="mono"
            value={given.sha256}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => set({ sha256: e.target.value })}
            onBlur={() => void runCheck(given)}
          />
        )}
      </WizardField>
      <p className="wiz-tool-archive-status" role="status">
        {current?.checking ? `Checking ${given.path.trim()}…` : current?.result ? describeChecked(current.result) : null}
      </p>
    </fieldset>
  )
}

/** "✓ 1.20 MiB source archive, SHA-256 …: the pinned IOzone 3.489 …". */
function describeChecked(result: Checked): string {
  const what = result.program ? 'program (uploaded as is)' : 'source archive (built on each target)'
  const trust =
    result.trust === 'pinned'
      ? `the pinned ${result.release ?? 'release'}`
      : result.trust === 'given'
        ? 'matches the SHA-256 you gave'
        : 'not a pinned release and no SHA-256 given: the run records its checksum (a warning in its findings)'
  return `✓ ${formatValue(result.bytes, 'B')} ${what}, SHA-256 ${result.sha256}: ${trust}.`
}
