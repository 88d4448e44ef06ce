import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactElement } from 'react'
import { RUN_STATUSES } from '../../../../shared/model/run'
import { EmptyState, PageHeader } from '../../components/empty-state'
import { describedByOf, Field, FieldMessages } from '../../components/field'
import { useAppStore } from '../../store'
import type { ListedRun, RunFacts } from '../../store/runs-slice'
import { apiMessage } from '../../lib/api-message'
import { formatDuration, formatWhen, secondsBetween } from './job-view'
import { filterRuns, isFiltered, NO_FILTER, targetOptions, testOptions, type RunFilter } from './run-filters'
import { PublishedBadge, RUN_STATUS_WORDS, RunStatusChip, SweepBadge } from './run-status'
import { TeamHistory } from '../team/team-history'
import './runs.css'

/** Run history: search, filters, open, rename, delete (with undo), export, compare. */
export function RunsPage(): ReactElement {
  const runs = useAppStore((s) => s.runs)
  const runsError = useAppStore((s) => s.runsError)
  const problems = useAppStore((s) => s.runsProblems)
  const pending = useAppStore((s) => s.pendingDeletions)
  const facts = useAppStore((s) => s.runFacts)
  const loadRuns = useAppStore((s) => s.loadRuns)
  const loadRunFacts = useAppStore((s) => s.loadRunFacts)
  const navigate = useAppStore((s) => s.navigate)
  const openRunComparison = useAppStore((s) => s.openRunComparison)
  const [filter, setFilter] = useState<RunFilter>(NO_FILTER)
  /** Ticked runs, in the order they were ticked: the first is the comparison's reference. */
  const [ticked, setTicked] = useState<string[]>([])

  useEffect(() => {
    void loadRuns()
  }, [loadRuns])

  useEffect(() => {
    if (runs) void loadRunFacts(runs.map((r) => r.id))
  }, [runs, loadRunFacts])

  const visible = useMemo(() => {
    const hidden = new Set(pending.map((p) => p.id))
    return (runs ?? []).filter((r) => !hidden.has(r.id))
  }, [runs, pending])
  const shown = useMemo(() => filterRuns(visible, facts, filter), [visible, facts, filter])
  const selected = ticked.filter((id) => visible.some((r) => r.id === id))
  const unread = visible.filter((r) => !facts[r.id]).length

  const toggle = (id: string): void => setTicked((current) => (current.includes(id) ? current.filter((c) => c !== id) : [...current, id]))

  return (
    <div className="page page-wide runs-history">
      <PageHeader title="Runs" lead="Every comparison you have run, with its raw output, environment and results." />
      {runsError ? (
        <div className="banner banner-error" role="alert">
          <strong>Could not list the runs.</strong> {runsError}
          <button type="button" className="button button-small" onClick={() => void loadRuns()}>
            Try again
          </button>
        </div>
      ) : null}
      {problems.length > 0 ? (
        <div className="banner banner-warning">
          <strong>Some run folders could not be read:</strong>
          <ul className="runs-problems">
            {problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {runs === undefined ? (
        runsError ? null : (
          <p className="muted" role="status">
            Reading the runs…
          </p>
        )
      ) : visible.length === 0 ? (
        <EmptyState icon="runs" title="No runs yet">
          <p>
            Each run is kept with the exact commands, the raw output of every tool, the parsed values with their units, and
            the environment of every target, so any number can be traced back to what produced it.
          </p>
          <div className="toolbar">
            <button type="button" className="button button-primary" onClick={() => navigate('comparison')}>
              New comparison
            </button>
          </div>
        </EmptyState>
      ) : (
        <>
          <RunFilters runs={visible} facts={facts} filter={filter} onChange={setFilter} unread={unread} />
          <div className="runs-compare-bar">
            <p className="runs-count" role="status">
              {shown.length === visible.length ? `${visible.length} ${visible.length === 1 ? 'run' : 'runs'}` : `${shown.length} of ${visible.length} runs`}
            </p>
            <p className="muted runs-compare-hint">
              {selected.length === 0
                ? 'Tick two or more runs to compare them; the first one ticked is the reference (100 %).'
                : `Reference (100 %): ${visible.find((r) => r.id === selected[0])?.name ?? selected[0]}'s baseline.`}
            </p>
            <button
              type="button"
              className="button button-primary"
              disabled={selected.length < 2}
              onClick={() => openRunComparison(selected)}
            >
              Compare{selected.length > 0 ? ` (${selected.length})` : ''}
            </button>
          </div>
          <RunsTable runs={shown} selected={selected} onToggle={toggle} onClearFilters={isFiltered(filter) ? () => setFilter(NO_FILTER) : undefined} />
        </>
      )}
      <TeamHistory />
    </div>
  )
}

function RunFilters({
  runs,
  facts,
  filter,
  onChange,
  unread
}: {
  runs: ListedRun[]
  facts: Record<string, RunFacts>
  filter: RunFilter
  onChange: (filter: RunFilter) => void
  unread: number
}): ReactElement {
  const targets = useMemo(() => targetOptions(runs), [runs])
  const tests = useMemo(() => testOptions(runs.flatMap((r) => (facts[r.id] ? [facts[r.id] as RunFacts] : []))), [runs, facts])
  const set = (patch: Partial<RunFilter>): void => onChange({ ...filter, ...patch })
  const rangeError = filter.from && filter.to && filter.from > filter.to ? 'The start date is after the end date.' : undefined

  return (
    <form className="runs-filters" role="search" aria-label="Search and filter runs" onSubmit={(e) => e.preventDefault()}>
      <Field label="Search" className="runs-filter-search">
        {(control) => (
          <input
            {...control}
            type="search"
            placeholder="Run name or target"
            value={filter.search}
            onChange={(e) => set({ search: e.target.value })}
          />
        )}
      </Field>
      <Field label="Target">
        {(control) => (
          <select {...control} value={filter.target} onChange={(e) => set({ target: e.target.value })}>
            <option value="">Any target</option>
            {targets.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Test or pack" hint={unread > 0 ? `Reading the tests of ${unread} ${unread === 1 ? 'run' : 'runs'}…` : undefined}>
        {(control) => (
          <select {...control} value={filter.test} onChange={(e) => set({ test: e.target.value })}>
            <option value="">Any test</option>
            {(['Packs', 'Tests'] as const).map((group) => {
              const options = tests.filter((t) => t.group === group)
              return options.length > 0 ? (
                <optgroup key={group} label={group}>
                  {options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </optgroup>
              ) : null
            })}
          </select>
        )}
      </Field>
      <Field label="Status">
        {(control) => (
          <select {...control} value={filter.status} onChange={(e) => set({ status: e.target.value as RunFilter['status'] })}>
            <option value="">Any status</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {RUN_STATUS_WORDS[s]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="From">
        {(control) => <input {...control} type="date" value={filter.from} max={filter.to || undefined} onChange={(e) => set({ from: e.target.value })} />}
      </Field>
      <Field label="To" error={rangeError}>
        {(control) => <input {...control} type="date" value={filter.to} min={filter.from || undefined} onChange={(e) => set({ to: e.target.value })} />}
      </Field>
      <div className="runs-filter-clear">
        <button type="button" className="button" disabled={!isFiltered(filter)} onClick={() => onChange(NO_FILTER)}>
          Clear filters
        </button>
      </div>
    </form>
  )
}

function RunsTable({
  runs,
  selected,
  onToggle,
  onClearFilters
}: {
  runs: ListedRun[]
  selected: string[]
  onToggle: (id: string) => void
  onClearFilters: (() => void) | undefined
}): ReactElement {
  const active = useAppStore((s) => s.activeRuns)
  return (
    <div className="table-scroll">
      <table className="data-table runs-table">
        <caption className="visually-hidden">Runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col" className="col-check">
              <span className="visually-hidden">Compare</span>
            </th>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Targets</th>
            <th scope="col">Jobs</th>
            <th scope="col">Started</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.length === 0 ? (
            <tr>
              <td colSpan={7} className="runs-no-match">
                No run matches these filters.{' '}
                {onClearFilters ? (
                  <button type="button" className="button button-small" onClick={onClearFilters}>
                    Clear filters
                  </button>
                ) : null}
              </td>
            </tr>
          ) : (
            runs.map((run) => (
              <RunRow
                key={run.id}
                run={run}
                running={active.includes(run.id)}
                order={selected.indexOf(run.id)}
                onToggle={onToggle}
              />
            ))
          )}
        </tbody>
      </table>
    </div>
  )
}

function RunRow({
  run,
  running,
  order,
  onToggle
}: {
  run: ListedRun
  running: boolean
  /** Position among the ticked runs, -1 when not ticked. */
  order: number
  onToggle: (id: string) => void
}): ReactElement {
  const openRun = useAppStore((s) => s.openRun)
  const deleteRun = useAppStore((s) => s.deleteRun)
  const exportRunJson = useAppStore((s) => s.exportRunJson)
  const [renaming, setRenaming] = useState(false)
  const [error, setError] = useState<string>()
  const renameButton = useRef<HTMLButtonElement>(null)
  const status = running ? 'running' : run.status
  const published = run.source?.kind === 'published' ? run.source : undefined
  const took = secondsBetween(run.createdAt, run.endedAt)

  const exportJson = async (): Promise<void> => {
    setError(undefined)
    try {
      await exportRunJson(run.id)
    } catch (e) {
      setError(`Could not export: ${apiMessage(e)}`)
    }
  }

  return (
    <tr data-run={run.id} className={order >= 0 ? 'runs-row-selected' : undefined}>
      <td className="col-check">
        <input type="checkbox" checked={order >= 0} aria-label={`Select ${run.name} to compare`} onChange={() => onToggle(run.id)} />
        {order === 0 ? <span className="runs-reference-mark" title="The reference of the comparison (100 %)">ref</span> : null}
      </td>
      <th scope="row" className="runs-name-cell">
        {renaming ? (
          <RenameForm
            run={run}
            onDone={() => {
              setRenaming(false)
              requestAnimationFrame(() => renameButton.current?.focus())
            }}
          />
        ) : (
          <>
            <button type="button" className="runs-name-link" onClick={() => openRun(run.id)}>
              {run.name}
            </button>
            {published ? <PublishedBadge source={published} /> : null}
            {run.sweep ? <SweepBadge combinations={run.variants.length} guest={run.sweep.guest} domain={run.sweep.domain} /> : null}
          </>
        )}
        {error ? <p className="field-error">{error}</p> : null}
      </th>
      <td>
        <RunStatusChip status={status} />
      </td>
      <td className="runs-targets-cell">
        {run.baseline}
        <span className="cell-note" title={run.variants.length > SHOWN_VARIANTS ? run.variants.join(', ') : undefined}>
          vs {variantsText(run.variants)}
        </span>
      </td>
      <td className="runs-jobs-cell">
        {run.jobs.succeeded} of {run.jobs.total} done
        {run.jobs.failed > 0 ? <span className="cell-note runs-error-text">✕ {run.jobs.failed} failed</span> : null}
      </td>
      <td className="runs-when-cell">
        {formatWhen(run.createdAt)}
        {took !== undefined && took > 0 ? <span className="cell-note">took {formatDuration(took)}</span> : null}
      </td>
      <td className="row-actions">
        <button ref={renameButton} type="button" className="button button-small" aria-label={`Rename ${run.name}`} disabled={renaming} onClick={() => setRenaming(true)}>
          Rename
        </button>
        <button type="button" className="button button-small" aria-label={`Export ${run.name} as .json`} onClick={() => void exportJson()}>
          Export
        </button>
        <button
          type="button"
          className="button button-small button-quiet-danger"
          aria-label={`Delete ${run.name}`}
          disabled={running}
          title={running ? 'A run can be deleted once it has ended.' : undefined}
          onClick={() => deleteRun(run.id)}
        >
          Delete
        </button>
      </td>
    </tr>
  )
}

/** Variants named in a history row; more are counted (and all named in the cell's title). */
const SHOWN_VARIANTS = 3

/** "guest-01, guest-02, guest-03 and 17 more": a row stays a row with 20 variants. */
function variantsText(variants: readonly string[]): string {
  if (variants.length === 0) return 'no variant'
  if (variants.length <= SHOWN_VARIANTS) return variants.join(', ')
  return `${variants.slice(0, SHOWN_VARIANTS).join(', ')} and ${variants.length - SHOWN_VARIANTS} more`
}

function RenameForm({ run, onDone }: { run: ListedRun; onDone: () => void }): ReactElement {
  const renameRun = useAppStore((s) => s.renameRun)
  const [name, setName] = useState(run.name)
  const [error, setError] = useState<string>()
  const [saving, setSaving] = useState(false)
  const id = useId()

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    const trimmed = name.trim()
    if (trimmed === '') return setError('A run needs a name.')
    if (trimmed.length > 120) return setError('Keep the name to 120 characters or fewer.')
    if (trimmed === run.name) return onDone()
    setSaving(true)
    try {
      await renameRun(run.id, trimmed)
      onDone()
    } catch (e) {
      setError(apiMessage(e))
      setSaving(false)
    }
  }

  return (
    <form className="runs-rename" onSubmit={(e) => void submit(e)}>
      <div className="runs-rename-row">
        <input
          id={id}
          // The user asked to rename: the field they are about to type in takes the focus.
          autoFocus
          aria-label={`New name for ${run.name}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByOf(id, error, undefined)}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault()
              onDone()
            }
          }}
        />
        <button type="submit" className="button button-small button-primary" disabled={saving}>
          Save
        </button>
        <button type="button" className="button button-small" onClick={onDone}>
          Cancel
        </button>
      </div>
      <FieldMessages id={id} error={error} />
    </form>
  )
}
