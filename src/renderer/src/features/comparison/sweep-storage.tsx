import type { ReactElement } from 'react'
import { DiskDeviceSchema, SWAP_BACKENDS, type SwapBackend } from '../../../../shared/model/scenario'
import {
  FACTOR_NAMES,
  isSwept,
  repeatedStorageDisks,
  valueText,
  withBackend,
  withBootDiskAllowed,
  withFactor,
  withStorageDisk,
  withStorageDiskAdded,
  withStorageDiskRemoved,
  type SweepDraft
} from '../../models/sweep-draft'
import type { WizardIssues } from './use-issues'
import { WizardField, WizardGroup } from './wizard-field'

/** What each backend's prepared disk is, as typed. */
const PATH_HINTS: Record<SwapBackend, string> = {
  'file-raw': 'a raw image file, e.g. /var/lib/libvirt/images/bench.raw',
  'file-qcow2': 'a qcow2 image file, e.g. /var/lib/libvirt/images/bench.qcow2',
  lvm: 'a logical volume, e.g. /dev/vg0/bench'
}

/**
 * The storage factor of a sweep (docs/presets.md#sweeps): the backends swept, and for each data
 * disk swapped (its <target dev>) the prepared disk on the physical host per backend. The plan's
 * schema checks every name and path (its messages are shown at their fields); the disk the guest
 * boots from is refused unless the admin allows it, past a warning.
 */
export function StorageFactor({
  sweep,
  host,
  issues,
  setSweep
}: {
  sweep: SweepDraft
  host: string | undefined
  issues: Pick<WizardIssues, 'errorAt' | 'errorUnder'>
  setSweep: (change: (s: SweepDraft) => SweepDraft) => void
}): ReactElement {
  const storage = sweep.storage
  const backendsError = issues.errorUnder('sweep.factors.storage')
  return (
    <div className="wiz-sweep-factor wiz-sweep-storage">
      <label className="check">
        <input type="checkbox" checked={isSwept(sweep, 'storage')} onChange={(e) => setSweep((s) => withFactor(s, 'storage', e.target.checked))} />
        <span>Sweep storage backend</span>
      </label>
      {storage ? (
        <>
          <fieldset className="wiz-sweep-values" aria-label={`${FACTOR_NAMES.storage} values`} aria-describedby={backendsError ? 'wiz-sweep-storage-error' : undefined}>
            {SWAP_BACKENDS.map((backend) => (
              <label key={backend} className="check">
                <input type="checkbox" checked={storage.backends.includes(backend)} onChange={(e) => setSweep((s) => withBackend(s, backend, e.target.checked))} />
                <span>{valueText('storage', backend)}</span>
              </label>
            ))}
            {backendsError ? (
              <p id="wiz-sweep-storage-error" className="field-error">
                {backendsError}
              </p>
            ) : null}
          </fieldset>
          <StorageDisks sweep={sweep} host={host} issues={issues} setSweep={setSweep} />
          <BootDiskChoice allowed={storage.allowBootDisk} onChange={(allowed) => setSweep((s) => withBootDiskAllowed(s, allowed))} />
        </>
      ) : null}
    </div>
  )
}

/** Each data disk swapped: its name, and a prepared disk per backend swept. */
function StorageDisks({
  sweep,
  host,
  issues,
  setSweep
}: {
  sweep: SweepDraft
  host: string | undefined
  issues: Pick<WizardIssues, 'errorAt'>
  setSweep: (change: (s: SweepDraft) => SweepDraft) => void
}): ReactElement | null {
  const storage = sweep.storage
  if (!storage) return null
  const repeated = repeatedStorageDisks(storage)
  const where = host ?? 'the physical host'
  return (
    <WizardGroup
      path="sweep.storage"
      legend="Data disks swapped, and their prepared disks"
      hint={`Each prepared disk is on ${where}, made ready by you: VirtBench points the data disk at it in turn and does not create, format or fill it (the guest sees the data on it). Each path is checked on ${where} before anything changes.`}
      error={issues.errorAt('sweep.storage')}
      className="wiz-sweep-disks"
    >
      {storage.backends.length === 0 ? <p className="muted">Choose the backends above: each disk then needs a prepared disk for every one of them.</p> : null}
      {storage.disks.map((d, index) => {
        const name = d.disk.trim()
        // the plan's field of this disk; a second row with the same name gets a field of its own
        const first = storage.disks.findIndex((o) => o.disk.trim() === name) === index
        const path = first ? `sweep.storage.${name}` : `sweep.storage.${name}#${index + 1}`
        const label = name || `disk ${index + 1}`
        return (
          <div key={index} className="wiz-sweep-disk" role="group" aria-label={`Data disk ${index + 1}`}>
            <WizardField path={path} label="Disk name" hint="Its <target dev> in the domain XML, e.g. vdb" error={diskError(name, repeated, first, issues.errorAt(path))}>
              {(control) => (
                <input
                  {...control}
                  type="text"
                  className="mono"
                  value={d.disk}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => setSweep((s) => withStorageDisk(s, index, { disk: e.target.value }))}
                />
              )}
            </WizardField>
            {storage.backends.map((backend) => (
              <WizardField
                key={backend}
                path={`${path}.${backend}`}
                label={`${label}: ${valueText('storage', backend)}`}
                hint={PATH_HINTS[backend]}
                error={issues.errorAt(`${path}.${backend}`)}
              >
                {(control) => (
                  <input
                    {...control}
                    type="text"
                    className="mono"
                    value={d.paths[backend] ?? ''}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => setSweep((s) => withStorageDisk(s, index, { backend, path: e.target.value }))}
                  />
                )}
              </WizardField>
            ))}
            {storage.disks.length > 1 ? (
              <button type="button" className="button button-small" onClick={() => setSweep((s) => withStorageDiskRemoved(s, index))}>
                Remove {label}
              </button>
            ) : null}
          </div>
        )
      })}
      <div className="toolbar">
        <button type="button" className="button button-small" onClick={() => setSweep(withStorageDiskAdded)}>
          Add a data disk
        </button>
      </div>
    </WizardGroup>
  )
}

/**
 * The message at a disk's name: a name typed twice, the model's own words for a name it refuses
 * (the schema's record key check says only "Invalid key in record"), else the plan's problem there.
 */
function diskError(name: string, repeated: Set<string>, first: boolean, planned: string | undefined): string | undefined {
  if (repeated.has(name) && !first) return `${name} is named twice: name each data disk once`
  if (!planned) return undefined
  const named = DiskDeviceSchema.safeParse(name)
  return named.success ? planned : (named.error.issues[0]?.message ?? planned)
}

/** Swapping the boot disk: off unless the admin ticks it, and the warning says what it takes. */
function BootDiskChoice({ allowed, onChange }: { allowed: boolean; onChange: (allowed: boolean) => void }): ReactElement {
  return (
    <div className="wiz-sweep-boot">
      <label className="check">
        <input type="checkbox" checked={allowed} aria-describedby="wiz-sweep-boot-warning" onChange={(e) => onChange(e.target.checked)} />
        <span>Allow swapping the disk the guest boots from</span>
      </label>
      <p id="wiz-sweep-boot-warning" className={allowed ? 'banner banner-warning' : 'muted'} role={allowed ? 'alert' : undefined}>
        {allowed
          ? 'Warning: the guest then boots from each prepared disk in turn. Each must hold a bootable copy of the guest’s system, or the guest does not come back: its step fails, and the original configuration is put back.'
          : 'Off: a disk the guest boots from is refused before anything changes. Allow it only when every prepared disk holds a bootable copy of the guest’s system.'}
      </p>
    </div>
  )
}
