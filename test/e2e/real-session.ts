import type { Glassbox } from '../../src/main/app/create-glassbox'
import { createGlassbox } from '../../src/main/app/create-glassbox'
import { copyNaoLayout, makeTempDir } from '../support/fixtures'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../support/scripted-openai-server'
import { openUi, type UiSession } from './harness'

// The real services (store, project, agent, web server) on a copy of the nao-layout fixture, a scripted model
// server on loopback, and the web UI in headless Chromium: what the "real" browser suites share.

export interface RealSession {
  model: ScriptedServer
  glassbox: Glassbox
  ui: UiSession
  /** The store's folder, for suites that look at files Glassbox writes there. */
  dataDir: string
  close(): Promise<void>
}

export async function openRealSession(server: ScriptedServerOptions): Promise<RealSession> {
  const project = copyNaoLayout()
  const data = makeTempDir('glassbox-e2e-data-')
  const opened: Partial<RealSession> = {}
  const close = async (): Promise<void> => {
    await opened.ui?.close()
    await opened.glassbox?.close()
    await opened.model?.close()
    project.cleanup()
    data.cleanup()
  }
  try {
    opened.model = await startScriptedServer(server)
    opened.glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: opened.model.url, model: 'scripted-model', watch: false })
    opened.ui = await openUi(opened.glassbox)
    return { model: opened.model, glassbox: opened.glassbox, ui: opened.ui, dataDir: data.dir, close }
  } catch (error) {
    await close()
    throw error
  }
}
