import { useEffect, useLayoutEffect, useRef, type ReactElement } from 'react'
import { Icon, type IconName } from './components/icons'
import { ComparisonPage } from './features/comparison/comparison-page'
import { HomePage } from './features/home/home-page'
import { PresetsPage } from './features/presets/presets-page'
import { ReleasePage } from './features/release/release-page'
import { CompareRunsPage } from './features/runs/compare-runs-page'
import { RunPage } from './features/runs/run-page'
import { RunsPage } from './features/runs/runs-page'
import { UndoToasts } from './features/runs/undo-toast'
import { SettingsPage } from './features/settings/settings-page'
import { HostKeyPrompt } from './features/targets/host-key-dialog'
import { TargetsPage } from './features/targets/targets-page'
import { useAppStore, type Page } from './store'

const nav: { page: Page; label: string; icon: IconName }[] = [
  { page: 'targets', label: 'Targets', icon: 'targets' },
  { page: 'comparison', label: 'New comparison', icon: 'comparison' },
  { page: 'runs', label: 'Runs', icon: 'runs' },
  { page: 'presets', label: 'Presets', icon: 'presets' }
]

const pages: Record<Page, () => ReactElement> = {
  home: HomePage,
  targets: TargetsPage,
  comparison: ComparisonPage,
  runs: RunsPage,
  run: RunPage,
  'compare-runs': CompareRunsPage,
  release: ReleasePage,
  presets: PresetsPage,
  settings: SettingsPage
}

export function App(): ReactElement {
  const page = useAppStore((s) => s.page)
  const navigate = useAppStore((s) => s.navigate)
  const theme = useAppStore((s) => s.settings?.theme ?? 'system')
  const runId = useAppStore((s) => s.openRunId)
  const compared = useAppStore((s) => s.compareRunIds)
  const released = useAppStore((s) => s.releaseRunIds)
  const Current = pages[page]
  const main = useRef<HTMLElement>(null)

  // Every screen (and every run opened) starts at its top: the one scroller is shared by all.
  useLayoutEffect(() => {
    if (!main.current) return
    main.current.scrollTop = 0
    main.current.scrollLeft = 0
  }, [page, runId, compared, released])

  useEffect(() => {
    document.documentElement.dataset.theme = theme
  }, [theme])

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <button type="button" className="brand" onClick={() => navigate('home')} aria-current={page === 'home' ? 'page' : undefined}>
          <img className="brand-mark" src="./favicon.png" alt="" width={28} height={28} />
          VirtBench
        </button>
        <ul>
          {nav.map((item) => (
            <li key={item.page}>
              <button
                type="button"
                className="nav-item"
                aria-current={page === item.page || (item.page === 'runs' && (page === 'run' || page === 'compare-runs' || page === 'release')) ? 'page' : undefined}
                onClick={() => navigate(item.page)}
              >
                <Icon name={item.icon} />
                {item.label}
              </button>
            </li>
          ))}
        </ul>
        <div className="sidebar-foot">
          <button
            type="button"
            className="nav-item"
            aria-current={page === 'settings' ? 'page' : undefined}
            onClick={() => navigate('settings')}
          >
            <Icon name="settings" />
            Settings
          </button>
          <ConnectionStatus />
        </div>
      </nav>
      <main ref={main} className="content">
        <Current />
      </main>
      <Notices />
      <UndoToasts />
      <HostKeyPrompt />
    </div>
  )
}

function ConnectionStatus(): ReactElement {
  const connection = useAppStore((s) => s.connection)
  const info = useAppStore((s) => s.info)
  const label =
    connection === 'ipc'
      ? 'Desktop'
      : connection === 'open'
        ? 'Connected to virtbench serve'
        : connection === 'connecting'
          ? 'Connecting…'
          : 'Connection lost, retrying…'
  return (
    <div className="status" role="status">
      <span className={`dot dot-${connection}`} aria-hidden="true" />
      <span>
        {label}
        {info ? <span className="muted"> · v{info.version}</span> : null}
      </span>
    </div>
  )
}

function Notices(): ReactElement | null {
  const notices = useAppStore((s) => s.notices)
  const dismiss = useAppStore((s) => s.dismissNotice)
  if (notices.length === 0) return null
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'}>
          <span>{n.message}</span>
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
