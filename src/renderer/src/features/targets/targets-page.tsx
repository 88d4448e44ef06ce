import { useEffect, useState, type ReactElement } from 'react'
import type { TargetView } from '../../../../shared/targets-contract'
import { EmptyState, PageHeader } from '../../components/empty-state'
import { useAppStore } from '../../store'
import { DeleteTargetDialog } from './delete-dialog'
import { FixedKeyChoice } from './fixed-key-choice'
import { ImportDialog } from './import-dialog'
import { TargetFormDialog } from './target-form'
import { TargetTable } from './target-table'
import './targets.css'

type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; id: string }
  | { kind: 'delete'; id: string }
  | { kind: 'import' }
  | undefined

export function TargetsPage(): ReactElement {
  const api = useAppStore((s) => s.api)
  const targets = useAppStore((s) => s.targets)
  const backend = useAppStore((s) => s.secretsBackend)
  const loadError = useAppStore((s) => s.targetsError)
  const loadTargets = useAppStore((s) => s.loadTargets)
  const [open, setOpen] = useState<OpenDialog>()

  useEffect(() => {
    if (api) void loadTargets()
  }, [api, loadTargets])

  const close = (): void => setOpen(undefined)
  const find = (id: string): TargetView | undefined => targets?.find((v) => v.target.id === id)
  const editing = open?.kind === 'edit' ? find(open.id) : undefined
  const deleting = open?.kind === 'delete' ? find(open.id) : undefined
  const hasTargets = targets !== undefined && targets.length > 0

  const actions = (
    <div className="toolbar">
      <button type="button" className="button" onClick={() => setOpen({ kind: 'import' })}>
        Import from ~/.ssh/config
      </button>
      <button type="button" className="button button-primary" onClick={() => setOpen({ kind: 'add' })}>
        Add target
      </button>
    </div>
  )

  return (
    <div className="page page-wide targets-page">
      <div className="page-header-row">
        <PageHeader title="Targets" lead="The physical hosts and guests VirtBench reaches over SSH, and this computer." />
        {hasTargets ? actions : null}
      </div>

      {backend?.warning ? (
        <div className="banner banner-warning" role="status">
          <strong>{backend.savesWithFixedKey === false ? 'Secrets are kept for this session only.' : 'Secrets are not well protected here.'}</strong>{' '}
          {backend.warning}
          {backend.savesWithFixedKey !== undefined ? <FixedKeyChoice saving={backend.savesWithFixedKey} /> : null}
          <span className="banner-note">Secret store: {backend.name}</span>
        </div>
      ) : null}

      {loadError && targets === undefined ? (
        <div className="banner banner-error" role="alert">
          <strong>The targets could not be loaded.</strong> {loadError}{' '}
          <button type="button" className="button button-small" onClick={() => void loadTargets()}>
            Try again
          </button>
        </div>
      ) : targets === undefined ? (
        <p className="muted">Loading targets…</p>
      ) : hasTargets ? (
        <TargetTable
          views={targets}
          onEdit={(view) => setOpen({ kind: 'edit', id: view.target.id })}
          onDelete={(view) => setOpen({ kind: 'delete', id: view.target.id })}
        />
      ) : (
        <EmptyState icon="targets" title="No targets yet">
          <p>
            Add the physical host and the guests on it. Host keys are checked against your known_hosts; a key not seen before is
            shown with its fingerprint, and nothing is trusted until you say so.
          </p>
          {actions}
        </EmptyState>
      )}

      {open?.kind === 'add' ? <TargetFormDialog onClose={close} /> : null}
      {editing ? <TargetFormDialog editing={editing} onClose={close} /> : null}
      {deleting ? <DeleteTargetDialog view={deleting} onClose={close} /> : null}
      {open?.kind === 'import' ? <ImportDialog onClose={close} /> : null}
    </div>
  )
}
