import './styles.css'
import './daily-use.css'
import './setup-feedback.css'
import './theme.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './components/layout/App'
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
