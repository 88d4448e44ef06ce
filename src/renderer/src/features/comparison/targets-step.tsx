import { Fragment, useEffect, useState, type ReactElement } from 'react'
import { sameTargetName } from '../../../../shared/model/target'
import type { TargetView } from '../../../../shared/targets-contract'
import { EmptyState } from '../../components/empty-state'
import { FieldMessages } from '../../components/field'
import { StageList } from '../../components/stage-list'
import { useAppStore } from '../../store'
import { STAGE_ORDER, type ConnectionTest } from '../../store/targets-slice'
import { osSummary, STAGE_LABELS, targetAddress } from '../targets/describe'
import { TestConnectionButton } from '../targets/test-connection-button'
import { OsCell } from '../targets/os-cell'
import { TargetFormDialog } from '../targets/target-form'
import { useWizardIssues } from './use-issues'
import { fieldId, withBaseline, withVariant } from '../../models/wizard-draft'

/** Step 1: the baseline and the guests, from the inventory, with what is known of each. */
export function TargetsStep(): ReactElement {
  const targets = useAppStore((s) => s.targets)
  const loadError = useAppStore((s) => s.targetsError)
  const loadTargets = useAppStore((s) => s.loadTargets)
  const tests = useAppStore((s) => s.tests)
  const dismissTest = useAppStore((s) => s.dismissTest)
  const navigate = useAppStore((s) => s.navigate)
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const { errorAt } = useWizardIssues()
  const [adding, setAdding] = useState(false)
  const physical = targets ? soleBareMetal(targets) : undefined

  // A fresh comparison starts with its baseline chosen when exactly one target was found to be bare metal.
  useEffect(() => {
    if (physical === undefined) return
    updateDraft((d) => (d.baseline === undefined && d.variants.length === 0 ? withBaseline(d, physical) : d))
  }, [physical, updateDraft])

  const addButton = (
    <button type="button" className="button" onClick={() => setAdding(true)}>
      Add target
    </button>
  )
  const dialog = adding ? (
    <TargetFormDialog
      onClose={(saved) => {
        setAdding(false)
        if (!saved) return
        const { name, role } = saved.target
        updateDraft((d) => (role === 'host' && !d.baseline ? withBaseline(d, name) : role === 'guest' ? withVariant(d, name, true) : d))
      }}
    />
  ) : null

  if (targets === undefined) {
    return loadError ? (
      <div className="banner banner-error" role="alert">
        <strong>The targets could not be loaded.</strong> {loadError}{' '}
        <button type="button" className="button button-small" onClick={() => void loadTargets()}>
          Try again
        </button>
      </div>
    ) : (
      <p className="muted">Loading targets…</p>
    )
  }

  if (targets.length === 0) {
    return (
      <>
        <EmptyState icon="targets" title="A comparison needs targets first">
          <p>
            Add the physical host (the 100 % baseline) and the guests to compare with it. Each guest is measured under its scenario: hypervisor,
            storage backend, disk cache, queues, bus and network path.
          </p>
          <div className="toolbar">
            {addButton}
            <button type="button" className="button" onClick={() => navigate('targets')}>
              Import from ~/.ssh/config on the Targets page
            </button>
          </div>
        </EmptyState>
        {dialog}
      </>
    )
  }

  // Hosts first: the baseline is usually one of them.
  const views = [...targets].sort((a, b) => (a.target.role === b.target.role ? 0 : a.target.role === 'host' ? -1 : 1))
  const unknown = [draft.baseline, ...draft.variants.map((v) => v.target)].filter(
    (name): name is string => !!name && !targets.some((v) => sameTargetName(v.target.name, name))
  )
  const baselineView = targets.find((v) => draft.baseline && sameTargetName(v.target.name, draft.baseline))
  const baselineError = errorAt('baseline.target')
  const variantsError = errorAt('variants')
  // An unknown baseline's message stays with the baseline radios; an unknown guest's is here.
  const unknownPath = (name: string): string | undefined => {
    if (draft.baseline && sameTargetName(draft.baseline, name)) return undefined
    return `variants.${draft.variants.findIndex((v) => sameTargetName(v.target, name))}.target`
  }
  const unknownId = (name: string): string | undefined => {
    const path = unknownPath(name)
    return path ? fieldId(path) : undefined
  }
  const unknownError = (name: string): string | undefined => {
    const path = unknownPath(name)
    return path ? errorAt(path) : undefined
  }
  const firstGuestRow = views.findIndex((v) => !draft.baseline || !sameTargetName(v.target.name, draft.baseline))

  return (
    <div className="wiz-targets">
      <p className="wiz-intro">
        The <strong>baseline</strong> is the machine every result is compared with (100 %), usually the physical host. Tick the{' '}
        <strong>guests</strong> to measure against it; each becomes a variant of the comparison.
      </p>
      {baselineView?.target.role === 'guest' ? (
        <p className="banner banner-warning" role="status">
          {baselineView.target.name} is a guest. The baseline is usually the physical host, so that the results say what virtualization costs.
        </p>
      ) : null}

      {(baselineError && !baselineView) || variantsError ? (
        <div className="wiz-table-messages">
          {baselineError && !baselineView ? <FieldMessages id={fieldId('baseline.target')} error={baselineError} /> : null}
          {variantsError ? <FieldMessages id={fieldId('variants')} error={variantsError} /> : null}
        </div>
      ) : null}

      <div className="table-scroll">
        <table className="data-table wiz-target-table">
          <caption className="visually-hidden">Targets of the inventory</caption>
          <thead>
            <tr>
              <th scope="col">Baseline</th>
              <th scope="col">Guest</th>
              <th scope="col">Name</th>
              <th scope="col">Address</th>
              <th scope="col">Detected system</th>
              <th scope="col">Reachable</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {views.map((view, row) => {
              const { target } = view
              const isBaseline = !!draft.baseline && sameTargetName(draft.baseline, target.name)
              const variantIndex = draft.variants.findIndex((v) => sameTargetName(v.target, target.name))
              const variantPath = `variants.${variantIndex}.target`
              const variantError = variantIndex >= 0 ? errorAt(variantPath) : undefined
              const rowError = isBaseline ? baselineError : variantError
              const rowErrorId = `wiz-row-${row}`
              const test = tests[target.id]
              return (
                <Fragment key={target.id}>
                  <tr data-target={target.name} className={isBaseline || variantIndex >= 0 ? 'wiz-row-chosen' : undefined}>
                    <td className="col-check">
                      <input
                        type="radio"
                        name="wiz-baseline"
                        id={isBaseline || (!baselineView && row === 0) ? fieldId('baseline.target') : undefined}
                        aria-label={`Baseline: ${target.name}`}
                        checked={isBaseline}
                        aria-invalid={baselineError && (isBaseline || !baselineView) ? true : undefined}
                        aria-describedby={baselineError ? (isBaseline ? rowErrorId : !baselineView ? `${fieldId('baseline.target')}-error` : undefined) : undefined}
                        onChange={() => updateDraft((d) => withBaseline(d, target.name))}
                      />
                    </td>
                    <td className="col-check">
                      <input
                        type="checkbox"
                        id={variantIndex >= 0 ? fieldId(variantPath) : row === firstGuestRow ? fieldId('variants') : undefined}
                        aria-label={`Guest: ${target.name}`}
                        checked={variantIndex >= 0}
                        disabled={isBaseline}
                        aria-invalid={variantError ? true : undefined}
                        aria-describedby={variantError ? rowErrorId : row === firstGuestRow && variantsError ? `${fieldId('variants')}-error` : undefined}
                        onChange={(e) => updateDraft((d) => withVariant(d, target.name, e.target.checked))}
                      />
                    </td>
                    <th scope="row" className="target-name">
                      {target.name}
                      <span className="cell-note">{target.role === 'host' ? 'physical host' : 'guest'}</span>
                      {rowError ? (
                        <span id={rowErrorId} className="field-error">
                          {rowError}
                        </span>
                      ) : null}
                    </th>
                    <td>
                      <span className={target.kind === 'ssh' ? 'mono target-address' : 'target-address'}>{targetAddress(target)}</span>
                      {view.jumpChain.length > 0 ? <span className="cell-note">via {view.jumpChain.join(' → ')}</span> : null}
                    </td>
                    <OsCell os={target.os} />
                    <td>
                      <Reachability test={test} />
                    </td>
                    <td className="row-actions">
                      <TestConnectionButton target={target} test={test} label="Test connection" />
                    </td>
                  </tr>
                  {test ? (
                    <tr className="test-row">
                      <td colSpan={7}>
                        <TestPanel view={view} test={test} onDismiss={() => dismissTest(target.id)} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              )
            })}
          </tbody>
        </table>
      </div>

      {unknown.length > 0 ? (
        <div className="banner banner-warning wiz-unknown" role="status">
          <strong>Not among your targets:</strong>
          <ul>
            {unknown.map((name) => (
              <li key={name}>
                {name}{' '}
                {unknownError(name) ? <span className="field-error">{unknownError(name)}</span> : null}{' '}
                <button
                  type="button"
                  id={unknownId(name)}
                  className="button button-small"
                  onClick={() =>
                    updateDraft((d) =>
                      d.baseline && sameTargetName(d.baseline, name) ? { ...d, baseline: undefined } : withVariant(d, name, false)
                    )
                  }
                >
                  Leave {name} out
                </button>
              </li>
            ))}
          </ul>
          <span className="banner-note">The plan names them (a preset made elsewhere, or a target deleted since). Add a target with that name, or leave it out.</span>
        </div>
      ) : null}

      <div className="toolbar wiz-after-table">
        {addButton}
        <span className="muted">
          {draft.variants.length === 0
            ? 'No guest ticked yet.'
            : `${draft.variants.length} guest${draft.variants.length === 1 ? '' : 's'} ticked: ${draft.variants.map((v) => v.target).join(', ')}.`}
        </span>
      </div>
      {dialog}
    </div>
  )
}

function Reachability({ test }: { test: ConnectionTest | undefined }): ReactElement {
  if (!test) return <span className="muted">not tested</span>
  if (test.running) return <span className="muted">testing…</span>
  if (test.error) return <span className="chip chip-warn">✗ test could not run</span>
  if (test.result?.ok) return <span className="chip chip-ok">✓ reachable</span>
  const failed = test.stages.find((s) => s.status === 'failed')
  return <span className="chip chip-warn">✗ {failed ? `failed at ${STAGE_LABELS[failed.stage]}` : 'unreachable'}</span>
}

function TestPanel({ view, test, onDismiss }: { view: TargetView; test: ConnectionTest; onDismiss: () => void }): ReactElement {
  const name = view.target.name
  const text = test.running
    ? 'Testing the connection…'
    : test.error
      ? `The test could not run: ${test.error}`
      : test.result?.ok
        ? `Connection works.${test.result.os ? ` ${osSummary(test.result.os)}.` : ''}`
        : `Connection failed${test.result?.error ? `: ${test.result.error}` : '.'}`
  return (
    <section className="test-panel" aria-label={`Connection test of ${name}`}>
      <header className="test-head">
        <p className={`test-outcome ${test.running ? 'test-running' : test.result?.ok ? 'test-ok' : 'test-failed'}`} role="status">
          {text}
        </p>
        {test.running ? null : (
          <button type="button" className="icon-button" aria-label={`Hide the connection test of ${name}`} onClick={onDismiss}>
            ×
          </button>
        )}
      </header>
      <StageList stages={test.stages} order={STAGE_ORDER} labels={STAGE_LABELS} running={test.running} label={`Stages of the connection test of ${name}`} />
    </section>
  )
}

/** The one target whose connection test found no virtualization (bare metal), if exactly one was. */
export function soleBareMetal(targets: readonly TargetView[]): string | undefined {
  const physical = targets.filter((v) => v.target.os?.virtualization === 'none')
  return physical.length === 1 ? physical[0]?.target.name : undefined
}
