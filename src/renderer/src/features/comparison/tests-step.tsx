import { useId, useState, type ReactElement } from 'react'
import type { Catalog, CatalogPack } from '../../../../shared/catalog-contract'
import { AGGREGATES, type Aggregate, type ToolId } from '../../../../shared/model/tool-ids'
import { precisionAdvice } from '../../../../shared/compare/precision'
import { FieldMessages } from '../../components/field'
import { useAppStore } from '../../store'
import { DEVICE_PARAMS, ParamsForm } from './params-form'
import { paramsInForm, type CustomForm } from './quick-params'
import { useWizardIssues } from './use-issues'
import { Segmented, WizardField, WizardGroup } from './wizard-field'
import {
  chosenPackTests,
  estimateRepetitions,
  fieldId,
  formatDuration,
  freeTestId,
  normalizedOnly,
  packSeconds,
  packTests,
  type CustomDraft,
  type PackDraft,
  type WizardDraft
} from '../../models/wizard-draft'

export const AGGREGATE_HINTS: Record<Aggregate, string> = {
  median: 'the middle repetition: steady against one odd run',
  mean: 'the average of the repetitions',
  best: 'the best repetition (study 001 takes the best of three iperf3 runs)'
}

/** Step 3: study packs and custom tests, how often, and where storage tests write. */
export function TestsStep(): ReactElement {
  const catalogState = useAppStore((s) => s.wizardCatalog)
  const loadCatalog = useAppStore((s) => s.loadCatalog)
  const draft = useAppStore((s) => s.wizardDraft)
  const review = useAppStore((s) => s.wizardReview)
  const { errorAt, current } = useWizardIssues()
  const catalog = catalogState.catalog

  if (!catalog) {
    return catalogState.error ? (
      <div className="banner banner-error" role="alert">
        <strong>The study packs and tools could not be loaded.</strong> {catalogState.error}{' '}
        <button type="button" className="button button-small" onClick={() => void loadCatalog()}>
          Try again
        </button>
      </div>
    ) : (
      <p className="muted">Loading the study packs and tools…</p>
    )
  }

  const testsError = errorAt('tests')
  const seconds = current && review?.review?.ok ? review.review.seconds : undefined

  return (
    <div className="wiz-tests">
      <section aria-labelledby="wiz-packs-heading">
        <h3 id="wiz-packs-heading">Study packs</h3>
        <p className="wiz-intro">
          Each pack reproduces a published study with its exact tools and parameters. <strong>Quick</strong> runs the same shapes at small sizes, to
          try a setup in minutes; <strong>full</strong> runs the study as published.
        </p>
        <div id={fieldId('tests')} tabIndex={-1} className="wiz-anchor">
          {testsError ? <FieldMessages id={fieldId('tests')} error={testsError} /> : null}
        </div>
        <div className="wiz-pack-grid">
          {catalog.packs.map((pack) => (
            <PackCard key={pack.id} pack={pack} catalog={catalog} />
          ))}
        </div>
      </section>

      <CustomTests catalog={catalog} />

      <RepetitionsSection />

      <StorageSection />

      <NetworkSection />

      <p className="wiz-total" role="status">
        {draft.tests.length === 0
          ? 'No test chosen yet.'
          : seconds !== undefined
            ? `Estimated time, all jobs one after the other: ${formatDuration(seconds)}.`
            : 'The estimated time of the whole comparison is shown once the plan is complete (and on the Review step).'}
      </p>
    </div>
  )
}

function PackCard({ pack, catalog }: { pack: CatalogPack; catalog: Catalog }): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const { errorUnder } = useWizardIssues()
  const headingId = useId()
  const index = draft.tests.findIndex((t) => t.kind === 'pack' && t.pack === pack.id)
  const choice = index >= 0 ? (draft.tests[index] as PackDraft) : undefined
  const reps = estimateRepetitions(draft)
  const toolName = (id: ToolId): string => catalog.tools.find((t) => t.id === id)?.name ?? id
  const form = choice?.form ?? draft.parkedPacks[pack.id]?.form ?? 'quick'

  const include = (on: boolean): void =>
    updateDraft((d) => {
      if (on) {
        if (d.tests.some((t) => t.kind === 'pack' && t.pack === pack.id)) return d
        const { [pack.id]: restored, ...parkedPacks } = d.parkedPacks
        const next: PackDraft = restored ?? { kind: 'pack', pack: pack.id, form: 'quick', only: undefined }
        return { ...d, tests: [...d.tests, next], parkedPacks }
      }
      const leaving = d.tests.find((t): t is PackDraft => t.kind === 'pack' && t.pack === pack.id)
      return {
        ...d,
        tests: d.tests.filter((t) => !(t.kind === 'pack' && t.pack === pack.id)),
        parkedPacks: leaving ? { ...d.parkedPacks, [pack.id]: leaving } : d.parkedPacks
      }
    })

  const change = (next: Partial<PackDraft>): void =>
    updateDraft((d) => ({ ...d, tests: d.tests.map((t) => (t.kind === 'pack' && t.pack === pack.id ? { ...t, ...next } : t)) }))

  const setForm = (nextForm: 'full' | 'quick'): void => {
    const only = choice?.only ? normalizedOnly(pack, nextForm, choice.only) : undefined
    change({ form: nextForm, only: only && only.length === 0 ? undefined : only })
  }

  const tests = packTests(pack, form)
  const chosen = choice ? chosenPackTests(pack, choice) : tests
  const onlyPath = `tests.${index}.only`
  const onlyError = index >= 0 ? errorUnder(onlyPath) : undefined

  return (
    <article className={choice ? 'card wiz-pack wiz-pack-chosen' : 'card wiz-pack'} aria-labelledby={headingId}>
      <header className="wiz-pack-head">
        <h4 id={headingId}>{pack.name}</h4>
        <label className="check wiz-pack-include">
          <input type="checkbox" checked={!!choice} onChange={(e) => include(e.target.checked)} aria-describedby={headingId} />
          <span>{choice ? 'Included' : 'Include'}</span>
        </label>
      </header>
      <p className="wiz-pack-study">Study {pack.study}</p>
      <p>{pack.description}</p>
      <dl className="facts wiz-pack-facts">
        <dt>Measures</dt>
        <dd>{pack.categories.join(', ')}</dd>
        <dt>Tools</dt>
        <dd>{[...new Set(pack.tools)].map(toolName).join(', ')}</dd>
        <dt>Time per target</dt>
        <dd>
          quick {formatDuration(packSeconds(pack, { form: 'quick', only: undefined }, reps))} · full{' '}
          {formatDuration(packSeconds(pack, { form: 'full', only: undefined }, reps))}
          <span className="cell-note">
            with {reps} repetition{reps === 1 ? '' : 's'} of each test (or the test’s own)
          </span>
        </dd>
      </dl>

      {choice ? (
        <div className="wiz-pack-choice">
          <Segmented
            legend={`Size of ${pack.name}`}
            name={`wiz-form-${pack.id}`}
            value={choice.form}
            options={[
              { value: 'quick', label: `Quick · ${formatDuration(packSeconds(pack, { form: 'quick', only: choice.only }, reps))}` },
              { value: 'full', label: `Full · ${formatDuration(packSeconds(pack, { form: 'full', only: choice.only }, reps))}` }
            ]}
            onChange={setForm}
          />
          <details className="wiz-pack-tests" open={!!onlyError || undefined}>
            <summary>
              Tests: {chosen.length} of {tests.length}
            </summary>
            <WizardGroup path={onlyPath} legend={`Tests of ${pack.name} to run`} error={onlyError}>
              <ul className="wiz-pack-test-list">
                {tests.map((test) => (
                  <li key={test.id}>
                    <label className="check">
                      <input
                        type="checkbox"
                        checked={!choice.only || choice.only.includes(test.id)}
                        onChange={(e) => {
                          const current = choice.only ?? tests.map((t) => t.id)
                          const ids = e.target.checked ? [...current, test.id] : current.filter((id) => id !== test.id)
                          change({ only: normalizedOnly(pack, choice.form, ids) })
                        }}
                      />
                      <span>
                        {test.title} <span className="muted">· {toolName(test.tool)} · {formatDuration(test.seconds)} per run</span>
                        {test.repetitions ? <span className="muted"> · ×{test.repetitions}</span> : null}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </WizardGroup>
          </details>
        </div>
      ) : null}
    </article>
  )
}

/** A tool's defaults, without the raw-device parameters (the plan's storage sets those, confirmed). */
function startingParams(defaults: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(structuredClone(defaults)).filter(([key]) => !DEVICE_PARAMS.has(key)))
}

function CustomTests({ catalog }: { catalog: Catalog }): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const [tool, setTool] = useState<ToolId>(catalog.tools[0]?.id ?? 'fio')
  const [form, setForm] = useState<CustomForm>('quick')
  const pickerId = useId()
  const picked = catalog.tools.find((t) => t.id === tool)

  const add = (): void => {
    if (!picked) return
    updateDraft((d) => ({
      ...d,
      tests: [
        ...d.tests,
        { kind: 'custom', id: freeTestId(d, picked.id), title: '', tool: picked.id, params: startingParams(paramsInForm(picked.id, picked.defaults, form)), repetitions: '', aggregate: undefined }
      ]
    }))
  }

  return (
    <section aria-labelledby="wiz-custom-heading" className="wiz-custom">
      <h3 id="wiz-custom-heading">Custom tests</h3>
      <p className="wiz-intro">One tool with parameters of your own, starting from the tool’s defaults, or from its quick form.</p>
      {draft.tests.map((test, index) =>
        test.kind === 'custom' ? <CustomTestCard key={`${index}-${test.tool}`} index={index} test={test} catalog={catalog} /> : null
      )}
      <div className="wiz-custom-add">
        <div className="field">
          <label htmlFor={pickerId}>Tool</label>
          <select id={pickerId} value={tool} onChange={(e) => setTool(e.target.value as ToolId)} aria-describedby={`${pickerId}-hint`}>
            {catalog.tools.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.category})
              </option>
            ))}
          </select>
          <p id={`${pickerId}-hint`} className="field-hint">
            {picked?.description}
            {picked?.network ? ' Needs a peer: the baseline, or the network peer set below.' : ''}
          </p>
        </div>
        <Segmented
          legend="Size of the new test"
          name="wiz-custom-form"
          value={form}
          options={[
            { value: 'quick', label: 'Quick' },
            { value: 'full', label: 'Full' }
          ]}
          hint={form === 'quick' ? 'Short sizes and runs, as the packs’ quick forms (fio 64 MiB for 3 s): seconds per run.' : 'The tool’s own defaults (fio 1 GiB for 30 s).'}
          onChange={setForm}
        />
        <button type="button" className="button" onClick={add}>
          Add custom test
        </button>
      </div>
    </section>
  )
}

function CustomTestCard({ index, test, catalog }: { index: number; test: CustomDraft; catalog: Catalog }): ReactElement {
  const updateDraft = useAppStore((s) => s.updateDraft)
  const draft = useAppStore((s) => s.wizardDraft)
  const { errorAt } = useWizardIssues()
  const tool = catalog.tools.find((t) => t.id === test.tool)
  const base = `tests.${index}`
  const change = (next: Partial<CustomDraft>): void =>
    updateDraft((d) => ({ ...d, tests: d.tests.map((t, i) => (i === index && t.kind === 'custom' ? { ...t, ...next } : t)) }))
  const remove = (): void => updateDraft((d) => ({ ...d, tests: d.tests.filter((_, i) => i !== index) }))

  return (
    <section className="card wiz-custom-test" aria-label={`Custom test ${test.id}`}>
      <header className="wiz-variant-head">
        <h4>
          {tool?.name ?? test.tool} <span className="muted">· custom test</span>
        </h4>
        <button type="button" className="button button-small button-quiet-danger" onClick={remove} aria-label={`Remove custom test ${test.id}`}>
          Remove
        </button>
      </header>
      <div className="wiz-custom-fields">
        <WizardField path={`${base}.id`} label="Test id" hint="Unique in the comparison; lower-case letters, digits, “.”, “_” or “-”." error={errorAt(`${base}.id`)}>
          {(control) => <input {...control} type="text" className="mono" value={test.id} autoComplete="off" spellCheck={false} onChange={(e) => change({ id: e.target.value })} />}
        </WizardField>
        <WizardField path={`${base}.title`} label="Title" hint="How tables name it; empty: the tool and the id." error={errorAt(`${base}.title`)}>
          {(control) => <input {...control} type="text" value={test.title} autoComplete="off" onChange={(e) => change({ title: e.target.value })} />}
        </WizardField>
        <WizardField path={`${base}.repetitions`} label="Repetitions" hint={`Empty: the plan’s (${draft.repetitions || 'not set'}).`} error={errorAt(`${base}.repetitions`)}>
          {(control) => (
            <input {...control} type="text" inputMode="numeric" value={test.repetitions} placeholder={draft.repetitions} autoComplete="off" onChange={(e) => change({ repetitions: e.target.value })} />
          )}
        </WizardField>
        <WizardField path={`${base}.aggregate`} label="Aggregation" error={errorAt(`${base}.aggregate`)}>
          {(control) => (
            <select {...control} value={test.aggregate ?? ''} onChange={(e) => change({ aggregate: e.target.value === '' ? undefined : (e.target.value as Aggregate) })}>
              <option value="">the plan’s ({draft.aggregate})</option>
              {AGGREGATES.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          )}
        </WizardField>
      </div>
      {tool ? (
        <details className="wiz-params-details" open>
          <summary>Parameters of {tool.name}</summary>
          <ParamsForm base={`${base}.params`} schema={tool.paramsSchema} params={test.params} errorAt={errorAt} onChange={(params) => change({ params })} />
        </details>
      ) : (
        <p className="field-error">The catalog has no tool {test.tool}.</p>
      )}
    </section>
  )
}

function RepetitionsSection(): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const { errorAt } = useWizardIssues()
  return (
    <section aria-labelledby="wiz-reps-heading" className="wiz-reps">
      <h3 id="wiz-reps-heading">Repetitions</h3>
      <div className="wiz-reps-row">
        <WizardField
          path="repetitions"
          label="Runs of each test on each target"
          hint="Unless a test sets its own. More runs give a narrower confidence interval."
          error={errorAt('repetitions')}
          className="wiz-reps-field"
        >
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="numeric"
              value={draft.repetitions}
              autoComplete="off"
              onChange={(e) => updateDraft((d) => ({ ...d, repetitions: e.target.value }))}
            />
          )}
        </WizardField>
        <Segmented
          legend="Aggregation: the figure compared"
          name="wiz-aggregate"
          value={draft.aggregate}
          options={AGGREGATES.map((a) => ({ value: a, label: a }))}
          hint={`${draft.aggregate}: ${AGGREGATE_HINTS[draft.aggregate]}.`}
          onChange={(aggregate) => updateDraft((d) => ({ ...d, aggregate }))}
        />
      </div>
      <StatisticsFields />
    </section>
  )
}

/** When a result counts as the same, adaptive repetitions and the warm-up run. */
function StatisticsFields(): ReactElement {
  const stats = useAppStore((s) => s.wizardDraft.statistics)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const { errorAt } = useWizardIssues()
  const set = (patch: Partial<typeof stats>): void => updateDraft((d) => ({ ...d, statistics: { ...d.statistics, ...patch } }))
  const text = (path: string, label: string, hint: string, key: 'margin' | 'precision' | 'maxRepetitions' | 'budget', placeholder = ''): ReactElement => (
    <WizardField path={path} label={label} hint={hint} error={errorAt(path)} className="wiz-reps-field">
      {(control) => (
        <input {...control} type="text" inputMode="decimal" value={stats[key]} placeholder={placeholder} autoComplete="off" onChange={(e) => set({ [key]: e.target.value })} />
      )}
    </WizardField>
  )
  const adaptive = stats.precision.trim() !== ''
  const advice = adaptive ? adviceOf(stats.precision, stats.margin) : undefined
  return (
    <div className="wiz-reps-row wiz-stats">
      {text('equivalenceMarginPct', 'Same within ± (points)', 'A result whose whole 95 % interval lies within 100 % ± this is "the same" as the baseline.', 'margin')}
      {text(
        'precision.halfWidthPct',
        'Repeat until ± (points)',
        'Empty: exactly the runs above. Set: more runs, one round at a time, until each primary figure’s interval is this narrow.',
        'precision',
        'off'
      )}
      {adaptive ? text('precision.maxRepetitions', 'At most (runs)', 'Never more runs of one test than this.', 'maxRepetitions') : null}
      {adaptive ? text('precision.budgetSeconds', 'Time budget (s)', 'Empty: no limit but the runs above.', 'budget', 'none') : null}
      {advice ? (
        <p className="wiz-stats-advice" role="note">
          {advice}
        </p>
      ) : null}
      <label className="wiz-check">
        <input type="checkbox" checked={stats.warmup} onChange={(e) => set({ warmup: e.target.checked })} /> Warm-up run of each test on each target first (kept,
        not counted)
      </label>
    </div>
  )
}

/** precisionAdvice for what was typed; nothing while either field is not a number (the field's own error says so). */
function adviceOf(precision: string, margin: string): string | undefined {
  const halfWidth = Number(precision)
  const marginPct = Number(margin)
  if (precision.trim() === '' || margin.trim() === '' || !Number.isFinite(halfWidth) || !Number.isFinite(marginPct) || halfWidth <= 0 || marginPct <= 0) return undefined
  return precisionAdvice(halfWidth, marginPct)
}

function measuredNames(draft: WizardDraft): string[] {
  return [draft.baseline, ...draft.variants.map((v) => v.target)].filter((n): n is string => !!n)
}

function StorageSection(): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const { errorAt } = useWizardIssues()
  const storage = draft.storage
  const setStorage = (next: Partial<WizardDraft['storage']>): void => updateDraft((d) => ({ ...d, storage: { ...d.storage, ...next } }))
  const device = storage.device.trim()
  const names = measuredNames(draft)
  const confirmed = storage.kind === 'device' && device !== '' && storage.confirm === device

  return (
    <section aria-labelledby="wiz-storage-heading" className="wiz-storage">
      <h3 id="wiz-storage-heading">Where storage tests write</h3>
      <Segmented
        legend="Storage tests write to"
        name="wiz-storage-kind"
        value={storage.kind}
        options={[
          { value: 'directory', label: 'A work directory' },
          { value: 'device', label: 'A raw device (destroys its data)' }
        ]}
        onChange={(kind) => setStorage({ kind })}
      />
      {storage.kind === 'directory' ? (
        <WizardField
          path="storage.path"
          label="Work directory on each target"
          hint="An absolute path, or one under the login’s home (~/). Test files are created there and removed after the run."
          error={errorAt('storage.path')}
        >
          {(control) => (
            <input {...control} type="text" className="mono" value={storage.directory} autoComplete="off" spellCheck={false} onChange={(e) => setStorage({ directory: e.target.value })} />
          )}
        </WizardField>
      ) : (
        <div className="wiz-device">
          <WizardField path="storage.path" label="Device on each target" hint="For example /dev/vdb: the same path on every target." error={errorAt('storage.path')}>
            {(control) => (
              <input
                {...control}
                type="text"
                className="mono"
                value={storage.device}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setStorage({ device: e.target.value })}
              />
            )}
          </WizardField>
          <div className="banner banner-error wiz-device-warning" role="alert">
            <strong>
              <span aria-hidden="true">⚠ </span>All data on {device || 'the device'} is destroyed
            </strong>
            <span>
              fio and dd write straight onto {device || 'the device'}
              {names.length > 0 ? ` of ${names.join(', ')}` : ' of every target'}: every byte on it is overwritten, whatever it holds. Preflight
              refuses a device that is mounted, in use, or holds a filesystem, partition table or LVM signature, but a disk it cannot tell apart
              from a blank one is lost.
            </span>
          </div>
          <WizardField
            path="storage.confirm"
            label={device ? `Type ${device} again to confirm` : 'Type the device path again to confirm'}
            hint={confirmed ? `✓ Confirmed: ${device} may be overwritten on every target.` : 'Typed, not copied from a preset: the run does not start until it matches.'}
            error={errorAt('storage.confirm')}
          >
            {(control) => (
              <input
                {...control}
                type="text"
                className="mono"
                value={storage.confirm}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setStorage({ confirm: e.target.value })}
              />
            )}
          </WizardField>
        </div>
      )}
    </section>
  )
}

function NetworkSection(): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const targets = useAppStore((s) => s.targets)
  const { errorAt } = useWizardIssues()
  const network = draft.network
  const setNetwork = (next: Partial<WizardDraft['network']>): void => updateDraft((d) => ({ ...d, network: { ...d.network, ...next } }))
  const measured = measuredNames(draft)
  const others = (targets ?? []).map((v) => v.target.name).filter((n) => !measured.some((m) => m.toLowerCase() === n.toLowerCase()))
  const peerOptions = [...new Set([...others, ...(network.peer ? [network.peer] : [])])]
  const summary = [
    network.peer ? `peer ${network.peer}` : 'baseline and guests pair up',
    network.matrix ? 'matrix on' : undefined,
    network.simultaneous ? 'simultaneous on' : undefined,
    draft.schedule.order,
    draft.schedule.parallelTargets ? 'targets in parallel' : undefined
  ]
    .filter(Boolean)
    .join(' · ')
  const peerError = errorAt('network.peer')

  return (
    <details className="wiz-network" open={!!peerError || undefined}>
      <summary>
        Network tests and schedule <span className="muted">({summary})</span>
      </summary>
      <WizardField
        path="network.peer"
        label="Network peer"
        hint="The machine whose server network tests talk to. Without one, each guest talks to the baseline and the baseline to the first guest."
        error={peerError}
      >
        {(control) => (
          <select {...control} value={network.peer ?? ''} onChange={(e) => setNetwork({ peer: e.target.value === '' ? undefined : e.target.value })}>
            <option value="">none: the baseline and the guests pair up</option>
            {peerOptions.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </WizardField>
      <label className="check">
        <input type="checkbox" checked={network.matrix} onChange={(e) => setNetwork({ matrix: e.target.checked })} />
        <span>Also measure every ordered pair of targets (study 001’s network matrix)</span>
      </label>
      <label className="check">
        <input type="checkbox" checked={network.simultaneous} onChange={(e) => setNetwork({ simultaneous: e.target.checked })} />
        <span>Also run every target’s client at once against the peer (study 000’s contention test)</span>
      </label>
      <Segmented
        legend="Order of jobs"
        name="wiz-order"
        value={draft.schedule.order}
        options={[
          { value: 'interleaved', label: 'Interleaved (A B A B…)' },
          { value: 'grouped', label: 'Grouped by target' }
        ]}
        hint="Interleaved: drift over time hits the baseline and the guests alike."
        onChange={(order) => updateDraft((d) => ({ ...d, schedule: { ...d.schedule, order } }))}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={draft.schedule.parallelTargets}
          onChange={(e) => updateDraft((d) => ({ ...d, schedule: { ...d.schedule, parallelTargets: e.target.checked } }))}
        />
        <span>Run independent targets at the same time (they may disturb each other)</span>
      </label>
    </details>
  )
}
