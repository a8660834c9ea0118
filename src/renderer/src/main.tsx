import { createRoot } from 'react-dom/client'

function App(): React.JSX.Element {
  return <main>Glassbox</main>
}

createRoot(document.getElementById('root')!).render(<App />)
