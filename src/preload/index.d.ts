import type { GlassboxApi } from '../shared/api'
import type { SaveFileInput } from '../shared/save-file'

/** What the desktop preload exposes as `window.glassbox`: the API, one function per operation, and two native dialogs. */
export interface GlassboxBridge extends GlassboxApi {
  readonly transport: 'ipc'
  /** The native folder picker; null when cancelled. */
  pickFolder(): Promise<string | null>
  /** The native file picker (several files); empty when cancelled. */
  pickFiles(): Promise<string[]>
  /** The native save dialog, then writes the export there; the path saved to, or null when cancelled. */
  saveFile(input: SaveFileInput): Promise<string | null>
}

declare global {
  interface Window {
    glassbox?: GlassboxBridge
  }
}
