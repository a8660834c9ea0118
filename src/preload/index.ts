import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { PushEvent } from '../shared/api'
import { createApiCalls } from '../shared/api-client'
import type { GlassboxBridge } from './index.d'

// One typed function per operation, each a fixed channel; nothing generic reaches the page.
// Handlers answer `{ ok, value }` or `{ ok: false, error }` so errors arrive with their own message
// instead of Electron's "Error invoking remote method …" wrapper.

/** What src/main/ipc.ts answers; `value` is exactly the GlassboxApi result of that operation. */
type Reply<T> = { ok: true; value: T } | { ok: false; error: string }

async function call<T>(operation: string, input?: unknown): Promise<T> {
  const reply: Reply<T> | undefined = await ipcRenderer.invoke(`glassbox:${operation}`, input ?? {})
  if (!reply || typeof reply !== 'object') throw new Error(`Unexpected reply from the app for ${operation}.`)
  if (!reply.ok) throw new Error(reply.error)
  return reply.value
}

const PUSH_CHANNEL = 'glassbox:push'

const bridge: GlassboxBridge = {
  transport: 'ipc',
  ...createApiCalls(call),
  pickFolder: () => call('pickFolder'),
  pickFiles: () => call('pickFiles'),
  saveFile: (input) => call('saveFile', input),
  subscribe(listener: (event: PushEvent) => void) {
    const onPush = (_event: IpcRendererEvent, payload: PushEvent): void => listener(payload)
    ipcRenderer.on(PUSH_CHANNEL, onPush)
    return () => {
      ipcRenderer.removeListener(PUSH_CHANNEL, onPush)
    }
  }
}

contextBridge.exposeInMainWorld('glassbox', bridge)
