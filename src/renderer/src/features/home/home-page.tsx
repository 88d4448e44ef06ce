import { useEffect, useState, type ReactElement } from 'react'
import { PageHeader } from '../../components/empty-state'
import { Icon, type IconName } from '../../components/icons'
import { useAppStore, type Page } from '../../store'
import { ImportDialog } from '../targets/import-dialog'
import { ExampleLink } from './example'
import { FirstStart } from './first-start'
import { RecentRuns } from './recent-runs'
import './home.css'

const LEAD =
  'VirtBench measures how much slower a guest’s disk, network, CPU and memory are than the physical host it runs on, under each setup choice.'

const quickActions: { page: Page; icon: IconName; title: string; text: string }[] = [
  {
    page: 'comparison',
    icon: 'comparison',
    title: 'New comparison',
    text: 'The host as the 100 % baseline, the guests as variants, and the tests to run.'
  },
  { page: 'presets', icon: 'presets', title: 'Presets', text: 'Run a saved comparison again, or start from a study.' },
  { page: 'targets', icon: 'targets', title: 'Targets', text: 'Add machines, test connections, check host keys.' }
]

/**
 * The start screen. Before any target exists it says what VirtBench does and offers four ways to
 * begin; afterwards it offers the next comparison and the latest runs.
 */
export function HomePage(): ReactElement {
  const api = useAppStore((s) => s.api)
  const targets = useAppStore((s) => s.targets)
  const loadError = useAppStore((s) => s.targetsError)
  const loadTargets = useAppStore((s) => s.loadTargets)
  const navigate = useAppStore((s) => s.navigate)
  const [importing, setImporting] = useState(false)

  const loaded = targets !== undefined
  useEffect(() => {
    if (api && !loaded) void loadTargets()
  }, [api, loaded, loadTargets])

  return (
    <div className="page home-page">
      <PageHeader title="What does virtualization cost you?" lead={LEAD} />

      {targets === undefined ? (
        loadError ? (
          <div className="banner banner-error" role="alert">
            <strong>The targets could not be loaded.</strong> {loadError}{' '}
            <button type="button" className="button button-small" onClick={() => void loadTargets()}>
              Try again
            </button>
          </div>
        ) : (
          // Still loading: keep the space, show nothing that would jump away a moment later.
          <div className="home-loading" aria-busy="true" />
        )
      ) : targets.length === 0 ? (
        <FirstStart onImport={() => setImporting(true)} />
      ) : (
        <>
          <ul className="home-actions">
            {quickActions.map((action) => (
              <li key={action.page}>
                <button
                  type="button"
                  className={['step', 'home-action', action.page === 'comparison' ? 'home-action-primary' : undefined].filter(Boolean).join(' ')}
                  onClick={() => navigate(action.page)}
                >
                  <Icon name={action.icon} size={22} />
                  <span className="step-text">
                    <strong>
                      {action.title}
                      {action.page === 'targets' ? <span className="muted"> ({targets.length})</span> : null}
                    </strong>
                    <span>{action.text}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <RecentRuns />
          <ExampleLink />
        </>
      )}

      {/* Outside the first-start view: the dialog stays open (with its summary) once targets exist. */}
      {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
    </div>
  )
}
