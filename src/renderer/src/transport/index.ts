import type { GlassboxApi } from '../../../shared/api'
import type { SaveFileInput } from '../../../shared/save-file'
import { createWebTransport, takeTokenFromUrl } from './web-transport'

/** The API the UI uses, whichever way it travels, plus the native pickers when the desktop app offers them. */
export interface Transport {
  api: GlassboxApi
  kind: 'ipc' | 'web'
  pickFolder?: () => Promise<string | null>
  pickFiles?: () => Promise<string[]>
  /** Desktop: the native save dialog (web mode downloads instead); the path, or null when cancelled. */
  saveFile?: (input: SaveFileInput) => Promise<string | null>
  /** Web mode: the event stream came back after a drop. */
  onReconnect?: (listener: () => void) => () => void
}

/** IPC when the desktop preload is there, otherwise web mode with the page's token; null without a token. */
export function connectTransport(): Transport | null {
  const bridge = window.glassbox
  if (bridge) return { api: bridge, kind: 'ipc', pickFolder: () => bridge.pickFolder(), pickFiles: () => bridge.pickFiles(), saveFile: (input) => bridge.saveFile(input) }
  const token = takeTokenFromUrl()
  if (!token) return null
  const web = createWebTransport(token)
  return { api: web.api, kind: 'web', onReconnect: web.onReconnect }
}
