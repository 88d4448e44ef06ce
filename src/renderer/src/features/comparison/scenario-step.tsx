import type { ReactElement, ReactNode } from 'react'
import type { PreflightReport } from '../../../../shared/catalog-contract'
import {
  DISK_BUSES,
  DISK_CACHES,
  HYPERVISORS,
  NETWORK_PATHS,
  SCENARIO_LABELS,
  STORAGE_BACKENDS,
  type NetworkPath,
  type Scenario
} from '../../../../shared/model/scenario'
import { sameTargetName } from '../../../../shared/model/target'
import type { TargetView } from '../../../../shared/targets-contract'
import { useAppStore } from '../../store'
import { MatrixHelper } from './matrix-helper'
import { SweepEditor } from './sweep-editor'
import { useWizardIssues } from './use-issues'
import { WizardField } from './wizard-field'
import { movedVariant, networkPeerName, peerAddress, type VariantDraft } from '../../models/wizard-draft'

const QUEUES = [1, 2, 4, 8] as const

type Detected = PreflightReport['targets'][number]

/** Step 2: how each guest is set up, as choices, with what the hosts report beside it. */
export function ScenarioStep(): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const targets = useAppStore((s) => s.targets)
  const preflight = useAppStore((s) => s.wizardPreflight)
  const setStep = useAppStore((s) => s.setWizardStep)
  const { errorAt } = useWizardIssues()
  const report = preflight?.report

  const viewOf = (name: string | undefined): TargetView | undefined =>
    name ? targets?.find((v) => sameTargetName(v.target.name, name)) : undefined
  const detectedOf = (name: string): Detected | undefined => report?.targets.find((t) => sameTargetName(t.name, name))
  const peerName = networkPeerName(draft)
  const peer = viewOf(peerName)

  const setVariant = (index: number, change: (v: VariantDraft) => VariantDraft): void =>
    updateDraft((d) => ({ ...d, variants: d.variants.map((v, i) => (i === index ? change(v) : v)) }))

  return (
    <div className="wiz-scenario">
      <p className="wiz-intro">
        Say how each guest is set up. These labels name the variants in tables and reports; with the guest’s libvirt domain, the engine also checks
        the disk cache, queues, bus and storage against what its physical host reports.{' '}
        {report ? null : <span className="muted">Detected values appear once preflight has run (on the Review step).</span>}
      </p>

      <MatrixHelper />

      <SweepEditor />

      {draft.baseline ? (
        <section className="card wiz-baseline-card" aria-label={`Baseline ${draft.baseline}`}>
          <h3>
            Baseline: {draft.baseline} <span className="muted">(100 %)</span>
          </h3>
          <WizardField path="baseline.label" label="Label in tables" hint="Empty: the target name." error={errorAt('baseline.label')}>
            {(control) => (
              <input
                {...control}
                type="text"
                value={draft.baselineLabel}
                placeholder={draft.baseline}
                autoComplete="off"
                onChange={(e) => updateDraft((d) => ({ ...d, baselineLabel: e.target.value }))}
              />
            )}
          </WizardField>
        </section>
      ) : null}

      {draft.variants.length === 0 ? (
        <div className="banner banner-warning" role="status">
          No guest is ticked yet.{' '}
          <button type="button" className="button button-small" onClick={() => setStep(0)}>
            Choose guests on the Targets step
          </button>{' '}
          or create study 001’s matrix above.
        </div>
      ) : null}

      {draft.variants.map((variant, index) => (
        <VariantCard
          key={variant.target}
          index={index}
          count={draft.variants.length}
          variant={variant}
          view={viewOf(variant.target)}
          detected={detectedOf(variant.target)}
          preflightRan={report !== undefined}
          peerName={peerName}
          peer={peer}
          errorAt={errorAt}
          onChange={(change) => setVariant(index, change)}
          onMove={(by) => updateDraft((d) => movedVariant(d, index, by))}
        />
      ))}
    </div>
  )
}

function VariantCard({
  index,
  count,
  variant,
  view,
  detected,
  preflightRan,
  peerName,
  peer,
  errorAt,
  onChange,
  onMove
}: {
  index: number
  count: number
  variant: VariantDraft
  view: TargetView | undefined
  detected: Detected | undefined
  preflightRan: boolean
  peerName: string | undefined
  peer: TargetView | undefined
  errorAt: (path: string) => string | undefined
  onChange: (change: (v: VariantDraft) => VariantDraft) => void
  onMove: (by: -1 | 1) => void
}): ReactElement {
  const s = variant.scenario
  const base = `variants.${index}`
  const setScenario = <K extends keyof Scenario>(key: K, value: Scenario[K] | undefined): void =>
    onChange((v) => {
      const scenario = { ...v.scenario }
      if (value === undefined) delete scenario[key]
      else scenario[key] = value
      return { ...v, scenario }
    })
  const disk = detected?.detected
  const notYet = 'not detected yet: run preflight on the Review step'
  const noDisk = s.domain
    ? `not reported: the physical host gave no disk setup for domain ${s.domain}`
    : 'not detected: give the libvirt domain name below to read it from the physical host'
  const diskFact = (value: string | number | undefined, declared: string | number | undefined): ReactNode => {
    if (!preflightRan) return <Detection text={notYet} />
    if (value === undefined) return <Detection text={disk ? 'not reported by the physical host' : noDisk} />
    const differs = declared !== undefined && String(declared) !== String(value)
    return <Detection text={`detected: ${value}`} differs={differs} />
  }
  const virtualization = detected?.virtualization ?? view?.target.os?.virtualization

  return (
    <section className="card wiz-variant" aria-label={`Scenario of ${variant.target}`}>
      <header className="wiz-variant-head">
        <h3>
          <span className="muted">Variant {index + 1} · </span>
          {variant.target}
        </h3>
        <div className="toolbar">
          <button type="button" className="button button-small" disabled={index === 0} aria-label={`Move ${variant.target} up`} onClick={() => onMove(-1)}>
            ↑ Up
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={index === count - 1}
            aria-label={`Move ${variant.target} down`}
            onClick={() => onMove(1)}
          >
            ↓ Down
          </button>
        </div>
      </header>

      <div className="wiz-scenario-grid">
        <WizardField path={`${base}.label`} label="Label in tables" hint="Empty: the target name." error={errorAt(`${base}.label`)}>
          {(control) => (
            <input
              {...control}
              type="text"
              value={variant.label}
              placeholder={variant.target}
              autoComplete="off"
              onChange={(e) => onChange((v) => ({ ...v, label: e.target.value }))}
            />
          )}
        </WizardField>

        <Choice
          path={`${base}.scenario.hypervisor`}
          label="Hypervisor"
          value={s.hypervisor}
          options={HYPERVISORS.map((h) => ({ value: h, label: SCENARIO_LABELS.hypervisor[h] }))}
          error={errorAt(`${base}.scenario.hypervisor`)}
          detected={
            virtualization ? (
              <Detection text={`detected: ${virtualization === 'none' ? 'bare metal' : virtualization}${detected?.os ? ` (${detected.os})` : ''}`} />
            ) : (
              <Detection text={preflightRan ? 'not reported' : 'not detected yet: test the connection, or run preflight'} />
            )
          }
          onChange={(value) => setScenario('hypervisor', value)}
        />

        <Choice
          path={`${base}.scenario.storage`}
          label="Storage backend"
          value={s.storage}
          options={STORAGE_BACKENDS.map((b) => ({ value: b, label: SCENARIO_LABELS.storage[b] }))}
          error={errorAt(`${base}.scenario.storage`)}
          detected={
            !preflightRan ? (
              <Detection text={notYet} />
            ) : disk?.source ? (
              <Detection text={`detected source: ${disk.source}${disk.io ? ` (io=${disk.io})` : ''}`} />
            ) : (
              <Detection text={disk ? 'not reported by the physical host' : noDisk} />
            )
          }
          onChange={(value) => setScenario('storage', value)}
        />

        <Choice
          path={`${base}.scenario.cache`}
          label="Disk cache"
          value={s.cache}
          options={DISK_CACHES.map((c) => ({ value: c, label: SCENARIO_LABELS.cache[c] }))}
          error={errorAt(`${base}.scenario.cache`)}
          detected={diskFact(disk?.cache, s.cache)}
          onChange={(value) => setScenario('cache', value)}
        />

        <Choice
          path={`${base}.scenario.queues`}
          label="Queues"
          value={s.queues === undefined ? undefined : String(s.queues)}
          options={[...new Set([...QUEUES, ...(s.queues === undefined ? [] : [s.queues])])]
            .sort((a, b) => a - b)
            .map((q) => ({ value: String(q), label: q === 1 ? '1 queue' : `${q} queues` }))}
          error={errorAt(`${base}.scenario.queues`)}
          detected={diskFact(disk?.queues, s.queues)}
          onChange={(value) => setScenario('queues', value === undefined ? undefined : Number(value))}
        />

        <Choice
          path={`${base}.scenario.bus`}
          label="Disk bus"
          value={s.bus}
          options={DISK_BUSES.map((b) => ({ value: b, label: SCENARIO_LABELS.bus[b] }))}
          error={errorAt(`${base}.scenario.bus`)}
          detected={diskFact(disk?.bus, s.bus)}
          onChange={(value) => setScenario('bus', value)}
        />

        <Choice
          path={`${base}.scenario.network`}
          label="Network path"
          value={s.network}
          options={NETWORK_PATHS.map((p) => ({ value: p, label: `${SCENARIO_LABELS.network[p]}${addressText(peer, p)}` }))}
          error={errorAt(`${base}.scenario.network`)}
          detected={<NetworkNote peerName={peerName} peer={peer} path={s.network} />}
          onChange={(value) => setScenario('network', value)}
          emptyLabel={`not declared${addressText(peer, undefined)}`}
        />

        <WizardField
          path={`${base}.scenario.domain`}
          label="libvirt domain"
          hint="The guest’s domain name on its physical host, to read its real disk setup (virsh dumpxml). Empty: not checked."
          error={errorAt(`${base}.scenario.domain`)}
        >
          {(control) => (
            <input
              {...control}
              type="text"
              className="mono"
              value={s.domain ?? ''}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setScenario('domain', e.target.value === '' ? undefined : e.target.value)}
            />
          )}
        </WizardField>

        <WizardField path={`${base}.scenario.os`} label="Guest OS" hint="As people call it, for example “Windows Server 2019”." error={errorAt(`${base}.scenario.os`)}>
          {(control) => (
            <input
              {...control}
              type="text"
              value={s.os ?? ''}
              placeholder={detected?.os ?? view?.target.os?.name ?? ''}
              autoComplete="off"
              onChange={(e) => setScenario('os', e.target.value === '' ? undefined : e.target.value)}
            />
          )}
        </WizardField>
      </div>
    </section>
  )
}

/** " (10.0.0.5)" or " (no public address on host-01)": what a path means for this peer. */
function addressText(peer: TargetView | undefined, path: NetworkPath | undefined): string {
  if (!peer) return ''
  const result = peerAddress({ ...peer.target, address: peer.target.kind === 'ssh' ? peer.target.address : undefined }, path)
  return 'address' in result ? ` → ${result.address}` : ` (${result.missing})`
}

function NetworkNote({ peerName, peer, path }: { peerName: string | undefined; peer: TargetView | undefined; path: NetworkPath | undefined }): ReactElement {
  if (!peerName) return <Detection text="Choose the baseline to see the address network tests use." />
  if (!peer) return <Detection text={`${peerName} is not among your targets.`} />
  const result = peerAddress({ ...peer.target, address: peer.target.kind === 'ssh' ? peer.target.address : undefined }, path)
  if ('address' in result) return <Detection text={`network tests reach ${peer.target.name} at ${result.address}`} />
  return (
    <span className="wiz-detected wiz-detected-differs">
      <span aria-hidden="true">⚠ </span>
      {result.missing}: network tests of this guest would fail. Add the address to {peer.target.name} on the Targets page, or choose another path.
    </span>
  )
}

function Detection({ text, differs = false }: { text: string; differs?: boolean }): ReactElement {
  return (
    <span className={differs ? 'wiz-detected wiz-detected-differs' : 'wiz-detected'}>
      {differs ? <span aria-hidden="true">≠ </span> : null}
      {text}
      {differs ? ' (differs from the declared value)' : ''}
    </span>
  )
}

/** A scenario label as a select: "not declared" or one of the model's values. */
function Choice<V extends string>({
  path,
  label,
  value,
  options,
  error,
  detected,
  onChange,
  emptyLabel = 'not declared'
}: {
  path: string
  label: string
  value: V | undefined
  options: { value: V; label: string }[]
  error: string | undefined
  detected: ReactNode
  onChange: (value: V | undefined) => void
  emptyLabel?: string
}): ReactElement {
  return (
    <WizardField path={path} label={label} error={error} hint={detected}>
      {(control) => (
        <select {...control} value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? undefined : (e.target.value as V))}>
          <option value="">{emptyLabel}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </WizardField>
  )
}
