import { useId, useState, type ReactElement } from 'react'
import type { DomainList } from '../../../../shared/scenario-contract'
import { sameTargetName } from '../../../../shared/model/target'
import { apiMessage } from '../../lib/api-message'
import { useAppStore } from '../../store'
import {
  CHOICE_FACTORS,
  COUNT_FACTORS,
  emptySweep,
  FACTOR_NAMES,
  FACTOR_WORDS,
  isSwept,
  physicalHostName,
  SWEEP_FACTORS,
  valueText,
  withChoice,
  withFactor,
  type ChoiceFactor,
  type CountFactor,
  type SweepDraft,
  type SweepFactor
} from '../../models/sweep-draft'
import { SweepExpansion } from './sweep-expansion'
import { StorageFactor } from './sweep-storage'
import { useWizardIssues } from './use-issues'
import { WizardField, WizardGroup } from './wizard-field'

/** What a count factor's field suggests, as typed. */
const COUNT_HINTS: Record<CountFactor, string> = {
  queues: 'virtio queues of the disks, e.g. “1, 4” (at most one per vCPU)',
  vcpus: 'vCPU counts, e.g. “1, 2, 4”',
  memoryMiB: 'memory sizes in MiB, e.g. “1024, 4096”',
  nicQueues: 'virtio-net queues of every interface, e.g. “1, 2” (at most one per vCPU)'
}

/**
 * The scenario step's sweep (docs/scenarios.md#sweeps): one ticked guest measured under every
 * combination of the factors' values, each applied to its libvirt domain by VirtBench and undone
 * at the end. The domain is picked from its physical host's list (scenario:listDomains); the
 * combinations and the time are shown as the values are chosen.
 */
export function SweepEditor(): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const targets = useAppStore((s) => s.targets)
  const sweep = draft.sweep
  const guests = draft.variants.map((v) => v.target)
  const inventory = (targets ?? []).map((v) => ({ id: v.target.id, name: v.target.name, ...(v.target.hostId ? { hostId: v.target.hostId } : {}) }))

  const setSweep = (change: (s: SweepDraft) => SweepDraft): void => updateDraft((d) => (d.sweep ? { ...d, sweep: change(d.sweep) } : d))

  return (
    <section className="card wiz-sweep" aria-label="Sweep a guest">
      <div className="wiz-matrix-head">
        <div>
          <h3>Sweep one guest’s setup</h3>
          <p className="muted">
            VirtBench sets each combination on the guest’s libvirt domain (restarting it, unless libvirt applies the change live), measures it against the baseline, and puts the original
            configuration back at the end.
          </p>
        </div>
        {sweep ? (
          <button type="button" className="button" onClick={() => updateDraft(({ sweep: _dropped, domainConsent: _consent, ...rest }) => rest)}>
            Stop sweeping
          </button>
        ) : (
          <button
            type="button"
            className="button"
            disabled={guests.length === 0}
            onClick={() => updateDraft((d) => ({ ...d, sweep: emptySweep(guests[0] ?? '', d.variants[0]?.scenario.domain ?? '') }))}
          >
            Sweep a guest…
          </button>
        )}
      </div>
      {sweep ? (
        <SweepBody sweep={sweep} guests={guests} host={physicalHostName(sweep.target, draft.baseline, inventory)} baseline={draft.baseline} setSweep={setSweep} />
      ) : guests.length === 0 ? (
        <p className="muted">Tick a guest on the Targets step to sweep it.</p>
      ) : null}
    </section>
  )
}

function SweepBody({
  sweep,
  guests,
  host,
  baseline,
  setSweep
}: {
  sweep: SweepDraft
  guests: string[]
  host: string | undefined
  baseline: string | undefined
  setSweep: (change: (s: SweepDraft) => SweepDraft) => void
}): ReactElement {
  const issues = useWizardIssues()
  const { errorAt, errorUnder } = issues
  const others = guests.filter((g) => !sameTargetName(g, sweep.target))
  return (
    <div className="wiz-sweep-body">
      <div className="wiz-scenario-grid">
        <WizardField
          path="sweep.target"
          label="Guest swept"
          hint={host ? `Its physical host, where virsh runs: ${host}` : 'No physical host: set the guest’s host on the Targets page, or make its host the baseline.'}
          error={errorAt('sweep.target')}
        >
          {(control) => (
            <select {...control} value={sweep.target} onChange={(e) => setSweep((s) => ({ ...s, target: e.target.value }))}>
              {guests.some((g) => sameTargetName(g, sweep.target)) ? null : <option value={sweep.target}>{sweep.target} (not ticked)</option>}
              {guests.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          )}
        </WizardField>
        <DomainPicker sweep={sweep} host={host} baseline={baseline} error={errorAt('sweep.domain')} onDomain={(domain) => setSweep((s) => ({ ...s, domain }))} />
      </div>
      {others.length > 0 ? (
        <p className="banner banner-note">
          With a sweep, the comparison measures {sweep.target} alone, once per combination; {others.join(', ')} {others.length === 1 ? 'is' : 'are'} not
          measured.
        </p>
      ) : null}

      <WizardGroup path="sweep.factors" legend="Factors and their values" error={errorAt('sweep.factors')} className="wiz-sweep-factors">
        <StorageFactor sweep={sweep} host={host} issues={issues} setSweep={setSweep} />
        {SWEEP_FACTORS.map((factor) => (
          <FactorRow key={factor} factor={factor} sweep={sweep} error={errorUnder(`sweep.factors.${factor}`)} busDiskError={errorAt('sweep.busDisk')} setSweep={setSweep} />
        ))}
      </WizardGroup>

      <WizardGroup path="sweep.order" legend="Order of the measurements" error={errorAt('sweep.order')}>
        {(
          [
            ['grouped', 'Grouped: every repetition of one combination, then the next (one restart per combination)'],
            ['interleaved', 'Interleaved: every combination once per round (a restart before each measurement; drift hits all alike)']
          ] as const
        ).map(([order, text]) => (
          <label key={order} className="check">
            <input type="radio" name="wiz-sweep-order" checked={sweep.order === order} onChange={() => setSweep((s) => ({ ...s, order }))} />
            <span>{text}</span>
          </label>
        ))}
      </WizardGroup>

      <SweepExpansion />
    </div>
  )
}

function FactorRow({
  factor,
  sweep,
  error,
  busDiskError,
  setSweep
}: {
  factor: SweepFactor
  sweep: SweepDraft
  error: string | undefined
  busDiskError: string | undefined
  setSweep: (change: (s: SweepDraft) => SweepDraft) => void
}): ReactElement {
  const on = isSwept(sweep, factor)
  const id = useId()
  const path = `sweep.factors.${factor}`
  return (
    <div className="wiz-sweep-factor">
      <label className="check">
        <input type="checkbox" checked={on} onChange={(e) => setSweep((s) => withFactor(s, factor, e.target.checked))} />
        <span>Sweep {FACTOR_WORDS[factor]}</span>
      </label>
      {on && factor in CHOICE_FACTORS ? (
        <fieldset className="wiz-sweep-values" aria-label={`${FACTOR_NAMES[factor]} values`} aria-describedby={error ? `${id}-error` : undefined}>
          {CHOICE_FACTORS[factor as ChoiceFactor].map((value) => (
            <label key={value} className="check">
              <input
                type="checkbox"
                checked={sweep.chosen[factor as ChoiceFactor]?.includes(value) ?? false}
                onChange={(e) => setSweep((s) => withChoice(s, factor as ChoiceFactor, value, e.target.checked))}
              />
              <span>{valueText(factor, value)}</span>
            </label>
          ))}
          {error ? (
            <p id={`${id}-error`} className="field-error">
              {error}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {on && (COUNT_FACTORS as readonly string[]).includes(factor) ? (
        <WizardField path={path} label={`${FACTOR_NAMES[factor]} values`} hint={COUNT_HINTS[factor as CountFactor]} error={error}>
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="numeric"
              value={sweep.typed[factor as CountFactor] ?? ''}
              autoComplete="off"
              onChange={(e) => setSweep((s) => ({ ...s, typed: { ...s.typed, [factor]: e.target.value } }))}
            />
          )}
        </WizardField>
      ) : null}
      {on && factor === 'bus' ? (
        <WizardField path="sweep.busDisk" label="Data disk moved" hint="Its <target dev> in the domain XML, e.g. vdb; never the disk the guest boots from." error={busDiskError}>
          {(control) => (
            <input {...control} type="text" className="mono" value={sweep.busDisk} autoComplete="off" spellCheck={false} onChange={(e) => setSweep((s) => ({ ...s, busDisk: e.target.value }))} />
          )}
        </WizardField>
      ) : null}
    </div>
  )
}

/** The domain as typed, or picked from the physical host's list (virsh list --all --name). */
function DomainPicker({
  sweep,
  host,
  baseline,
  error,
  onDomain
}: {
  sweep: SweepDraft
  host: string | undefined
  baseline: string | undefined
  error: string | undefined
  onDomain: (domain: string) => void
}): ReactElement {
  const api = useAppStore((s) => s.api)
  const [listing, setListing] = useState(false)
  const [answer, setAnswer] = useState<DomainList & { guest: string }>()
  const [failed, setFailed] = useState<string>()
  const listId = useId()
  const current = answer && sameTargetName(answer.guest, sweep.target) ? answer : undefined

  const list = async (): Promise<void> => {
    if (!api || listing) return
    setListing(true)
    setFailed(undefined)
    try {
      const got = await api.invoke('scenario:listDomains', { guest: sweep.target, ...(baseline ? { baseline } : {}) })
      setAnswer({ ...got, guest: sweep.target })
    } catch (error) {
      setFailed(apiMessage(error))
    } finally {
      setListing(false)
    }
  }

  return (
    <div className="wiz-sweep-domain">
      <WizardField path="sweep.domain" label="libvirt domain" hint={`The guest’s domain on ${host ?? 'its physical host'}.`} error={error}>
        {(control) => (
          <input
            {...control}
            type="text"
            className="mono"
            list={current?.ok ? listId : undefined}
            value={sweep.domain}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => onDomain(e.target.value)}
          />
        )}
      </WizardField>
      {current?.ok ? (
        <datalist id={listId}>
          {current.domains.map((d) => (
            <option key={d} value={d} />
          ))}
        </datalist>
      ) : null}
      <div className="toolbar">
        <button type="button" className="button button-small" aria-disabled={host && api ? undefined : true} onClick={() => host && void list()}>
          {listing ? `Asking ${host ?? 'the host'}…` : `List the domains on ${host ?? 'the physical host'}`}
        </button>
      </div>
      {current?.ok ? (
        current.domains.length === 0 ? (
          <p className="muted" role="status">
            {current.host} has no libvirt domain (virsh list --all is empty).
          </p>
        ) : (
          <ul className="wiz-sweep-domains" aria-label={`Domains on ${current.host}`}>
            {current.domains.map((d) => (
              <li key={d}>
                <button type="button" className={sweep.domain === d ? 'chip chip-ok' : 'chip'} aria-pressed={sweep.domain === d} onClick={() => onDomain(d)}>
                  {d}
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {current && !current.ok ? (
        <p className="field-error" role="alert" data-problem={current.problem}>
          {current.message}
        </p>
      ) : null}
      {failed ? (
        <p className="field-error" role="alert">
          The domains could not be listed: {failed}
        </p>
      ) : null}
    </div>
  )
}
