import './base.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './components/layout/App'
// After App: the dark theme overrides the components' own rules, and Vite orders CSS by import.
import './theme.css'
import { AppProvider } from './state/app-state'
import { startTheme } from './state/theme'
import { connectTransport } from './transport'

startTheme()

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element.')
const transport = connectTransport()

createRoot(root).render(
  <StrictMode>
    {transport ? (
      <AppProvider transport={transport}>
        <App />
      </AppProvider>
    ) : (
      <div className="center-fill">
        <div className="empty-state">
          <h2>This page needs its access token</h2>
          <p className="muted">
            Open the address printed by <code>npm run web</code> — it ends with <code>?token=…</code>.
          </p>
        </div>
      </div>
    )}
  </StrictMode>
)
