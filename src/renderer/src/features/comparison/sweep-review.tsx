import { useMemo, useState, type ReactElement } from 'react'
import type { DomainDiff } from '../../../../shared/scenario-contract'
import type { DomainSetup } from '../../../../shared/model/scenario'
import { sameTargetName } from '../../../../shared/model/target'
import { apiMessage } from '../../lib/api-message'
import { useAppStore } from '../../store'
import { combinationsOf, consentText, domainsChanged, physicalHostName, type DomainChangeConsent } from '../../models/sweep-draft'
import { planOfDraft, type WizardDraft } from '../../models/wizard-draft'

/** One domain the plan changes, with the setups it gets (a sweep's combinations, or a variant's setup). */
interface DomainWork extends DomainChangeConsent {
  setups: { label: string; setup: DomainSetup }[]
}

function domainWork(draft: WizardDraft, hostOf: (guest: string) => string | undefined): DomainWork[] {
  const plan = planOfDraft(draft)
  return domainsChanged(plan, hostOf).map((change) => {
    const sweep = draft.sweep
    if (sweep && sameTargetName(sweep.target, change.guest) && plan.sweep?.domain === change.domain) {
      const scenario = draft.variants.find((v) => sameTargetName(v.target, sweep.target))?.scenario
      return { ...change, setups: (combinationsOf(sweep, scenario) ?? []).map((c) => ({ label: c.label, setup: c.setup })) }
    }
    const variant = draft.variants.find((v) => sameTargetName(v.target, change.guest))
    return { ...change, setups: variant?.scenario.setup ? [{ label: variant.label.trim() || variant.target, setup: variant.scenario.setup }] : [] }
  })
}

/** The consent the plan needs (its exact sentence), or undefined when it changes no domain. */
export function useDomainConsent(): { text: string | undefined; given: boolean; sweep: boolean } {
  const draft = useAppStore((s) => s.wizardDraft)
  const targets = useAppStore((s) => s.targets)
  return useMemo(() => {
    const inventory = (targets ?? []).map((v) => ({ id: v.target.id, name: v.target.name, ...(v.target.hostId ? { hostId: v.target.hostId } : {}) }))
    const changes = domainsChanged(planOfDraft(draft), (guest) => physicalHostName(guest, draft.baseline, inventory))
    const text = changes.length > 0 ? consentText(changes) : undefined
    return { text, given: text !== undefined && draft.domainConsent === text, sweep: draft.sweep !== undefined }
  }, [draft, targets])
}

/**
 * The review's domain changes (docs/scenarios.md): per variant (each combination of a sweep),
 * the exact line diff of the domain's XML as the host has it now (scenario:diff reads it with
 * virsh dumpxml; nothing is changed) and the restarts it needs; then the explicit consent
 * without which Start does not go.
 */
export function DomainChanges(): ReactElement | null {
  const draft = useAppStore((s) => s.wizardDraft)
  const targets = useAppStore((s) => s.targets)
  const updateDraft = useAppStore((s) => s.updateDraft)
  const consent = useDomainConsent()
  const work = useMemo(() => {
    const inventory = (targets ?? []).map((v) => ({ id: v.target.id, name: v.target.name, ...(v.target.hostId ? { hostId: v.target.hostId } : {}) }))
    return domainWork(draft, (guest) => physicalHostName(guest, draft.baseline, inventory))
  }, [draft, targets])
  if (!consent.text) return null

  return (
    <section aria-labelledby="wiz-domains-heading" className="wiz-domains">
      <h3 id="wiz-domains-heading">Domain changes</h3>
      <p className="muted">
        What VirtBench changes in each libvirt domain, line by line, against its configuration on the host now (virsh dumpxml --inactive). Reading it
        changes nothing.
      </p>
      {work.map((w) => (
        <DomainDiffView key={`${w.guest}/${w.domain}`} work={w} baseline={draft.baseline} />
      ))}
      {draft.sweep?.storage?.allowBootDisk ? (
        <p className="banner banner-warning">
          The sweep may swap the disk {draft.sweep.target} boots from (allowed on the Scenario step): the guest then boots from each prepared disk, which must
          hold a bootable copy of its system, or its step fails and the original configuration is put back.
        </p>
      ) : null}
      <label className="check wiz-consent">
        <input
          type="checkbox"
          checked={consent.given}
          onChange={(e) =>
            updateDraft(({ domainConsent: _old, ...rest }) => (e.target.checked && consent.text ? { ...rest, domainConsent: consent.text } : rest))
          }
        />
        <span>{consent.text}</span>
      </label>
    </section>
  )
}

function DomainDiffView({ work, baseline }: { work: DomainWork; baseline: string | undefined }): ReactElement {
  const api = useAppStore((s) => s.api)
  const [answer, setAnswer] = useState<{ key: string; diff?: DomainDiff; error?: string }>()
  const [reading, setReading] = useState(false)
  const key = JSON.stringify(work)
  const current = answer?.key === key ? answer : undefined
  const where = `${work.domain} on ${work.host ?? 'its physical host'}`

  const read = async (): Promise<void> => {
    if (!api || reading || work.setups.length === 0) return
    setReading(true)
    try {
      const diff = await api.invoke('scenario:diff', { guest: work.guest, ...(baseline ? { baseline } : {}), domain: work.domain, setups: work.setups.map((s) => s.setup) })
      setAnswer({ key, diff })
    } catch (error) {
      setAnswer({ key, error: apiMessage(error) })
    } finally {
      setReading(false)
    }
  }

  const diff = current?.diff
  return (
    <div className="wiz-domain" aria-label={`Changes to ${work.domain}`} role="group">
      <p className="wiz-job-title">
        <strong>{work.guest}</strong> <span className="muted">· domain {work.domain || '(not named)'} · host {work.host ?? '(none)'}</span>{' '}
        <button type="button" className="button button-small" aria-disabled={work.setups.length === 0 || !work.domain ? true : undefined} onClick={() => void read()}>
          {reading ? `Reading ${where}…` : current ? `Read ${work.domain} again` : `Show the XML changes of ${work.domain || 'the domain'}`}
        </button>
      </p>
      {work.setups.length === 0 ? <p className="muted">The changes are shown once the sweep has no problems.</p> : null}
      {current?.error ? (
        <p className="field-error" role="alert">
          The domain could not be read: {current.error}
        </p>
      ) : null}
      {diff && !diff.ok ? (
        <p className="field-error" role="alert" data-problem={diff.problem}>
          {diff.message}
        </p>
      ) : null}
      {diff?.ok ? (
        <ol className="wiz-domain-variants">
          {diff.setups.map((d, i) => {
            const label = work.setups[i]?.label ?? `setup ${i + 1}`
            return (
              <li key={label} aria-label={label}>
                <p>
                  <strong className="mono">{label}</strong>{' '}
                  {d.ok ? (
                    <span className="muted">
                      · {d.changes.length === 0 ? 'nothing changes, no restart' : `${d.changes.length} change${d.changes.length === 1 ? '' : 's'}; ${d.restarts.join('; ')}`}
                    </span>
                  ) : null}
                </p>
                {d.ok && d.diff ? <XmlDiff diff={d.diff} label={label} /> : null}
                {!d.ok ? (
                  <ul className="field-error" role="alert">
                    {d.errors.map((e) => (
                      <li key={e}>{e}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            )
          })}
        </ol>
      ) : null}
      {diff?.ok ? (
        <p className="muted">
          After the last step the original configuration is defined again and the guest restarted once more (put back live, no restart, when only its vCPUs
          or memory differ within the domain’s maximum).
        </p>
      ) : null}
    </div>
  )
}

/** A line diff as line-diff.ts writes it: `-` removed, `+` added (each line also says so in words for screen readers). */
function XmlDiff({ diff, label }: { diff: string; label: string }): ReactElement {
  return (
    <pre className="wiz-xml-diff mono" aria-label={`XML diff for ${label}`}>
      {diff.split('\n').map((line, i) => {
        const kind = line.startsWith('@@') ? 'hunk' : line.startsWith('- ') ? 'removed' : line.startsWith('+ ') ? 'added' : 'same'
        return (
          <span key={i} className={`wiz-diff-${kind}`}>
            {kind === 'removed' || kind === 'added' ? <span className="visually-hidden">{kind}: </span> : null}
            {line}
            {'\n'}
          </span>
        )
      })}
    </pre>
  )
}
