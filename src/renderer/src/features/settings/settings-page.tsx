import type { ReactElement } from 'react'
import type { Theme } from '../../../../shared/contract'
import { PageHeader } from '../../components/empty-state'
import { useAppStore } from '../../store'
import { TeamStoreSettings } from '../team/team-settings'

const themes: { value: Theme; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' }
]

export function SettingsPage(): ReactElement {
  const settings = useAppStore((s) => s.settings)
  const info = useAppStore((s) => s.info)
  const setTheme = useAppStore((s) => s.setTheme)
  return (
    <div className="page">
      <PageHeader title="Settings" lead="How VirtBench looks, and where it keeps its data." />
      <section className="card">
        <h2>Appearance</h2>
        <fieldset className="segmented" disabled={!settings}>
          <legend>Theme</legend>
          {themes.map((theme) => (
            <label key={theme.value} className={settings?.theme === theme.value ? 'selected' : undefined}>
              <input
                type="radio"
                name="theme"
                value={theme.value}
                checked={settings?.theme === theme.value}
                onChange={() => void setTheme(theme.value)}
              />
              {theme.label}
            </label>
          ))}
        </fieldset>
      </section>
      <TeamStoreSettings />
      <section className="card">
        <h2>About</h2>
        {info ? (
          <dl className="facts">
            <dt>Version</dt>
            <dd>{info.version}</dd>
            <dt>Platform</dt>
            <dd>
              {info.platform} {info.arch}
            </dd>
            <dt>Runtime</dt>
            <dd>
              Node {info.versions.node}
              {info.versions.electron ? `, Electron ${info.versions.electron}` : ''}
            </dd>
            <dt>Connected through</dt>
            <dd>{info.transport === 'ipc' ? 'the desktop app' : 'virtbench serve (loopback)'}</dd>
            <dt>Data folder</dt>
            <dd className="mono">{info.dataDir}</dd>
          </dl>
        ) : (
          <p className="muted">Not connected.</p>
        )}
      </section>
    </div>
  )
}
