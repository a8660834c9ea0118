import { createGlassbox } from '../app/create-glassbox'
import { startWebServer } from './server'

// Web mode over the real services in a process of its own, for tests that need its own open-file limit or its
// own main thread: `node --import tsx server-child.ts PROJECT DATA_DIR RENDERER_DIR` prints {url, token}.

const [projectPath, dataDir, rendererDir] = process.argv.slice(2)
const glassbox = await createGlassbox({ dataDir, projectPath, endpoint: 'http://127.0.0.1:9/v1', model: 'none', watch: false, extractMemories: false })
const server = await startWebServer({ api: glassbox, rendererDir })
process.stdout.write(JSON.stringify({ url: server.url, token: server.token }) + '\n')
process.on('SIGTERM', () => {
  void server.close().then(() => glassbox.close()).finally(() => process.exit(0))
})
