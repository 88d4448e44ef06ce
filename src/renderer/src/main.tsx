// global styles first: feature stylesheets (imported by the components) come later and win
import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { resolveApi } from './api/client'
import { App } from './app'
import { useAppStore } from './store'

const root = createRoot(document.getElementById('root')!)
const source = resolveApi((state) => useAppStore.getState().setConnection(state))

if (source.kind === 'missing-token') {
  root.render(
    <StrictMode>
      <div className="standalone">
        <h1>VirtBench needs its access token</h1>
        <p>
          This page is served by <code>virtbench serve</code>. Open the full URL it printed, including the part after
          <code>#token=</code>; the API refuses connections without it.
        </p>
      </div>
    </StrictMode>
  )
} else {
  if (source.kind === 'ipc') useAppStore.getState().setConnection('ipc')
  void useAppStore.getState().connect(source.api)
  root.render(
    <StrictMode>
      <App />
    </StrictMode>
  )
}
