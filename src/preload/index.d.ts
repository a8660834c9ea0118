import type { GlassboxApi } from '../shared/api'

/** What the desktop preload exposes as `window.glassbox`: the API, one function per operation, and two native dialogs. */
export interface GlassboxBridge extends GlassboxApi {
  readonly transport: 'ipc'
  /** The native folder picker; null when cancelled. */
  pickFolder(): Promise<string | null>
  /** The native file picker (several files); empty when cancelled. */
  pickFiles(): Promise<string[]>
}

declare global {
  interface Window {
    glassbox?: GlassboxBridge
  }
}
