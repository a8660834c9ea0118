import { homedir } from 'node:os'
import { join } from 'node:path'

export const APP_NAME = 'Glassbox'

/**
 * Where the SQLite store lives: `--data-dir`, then GLASSBOX_DATA_DIR, then the same per-user folder
 * Electron's `app.getPath('userData')` gives, so the CLI, web mode and the desktop app share one store.
 */
export function resolveDataDir(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return explicit
  if (env.GLASSBOX_DATA_DIR) return env.GLASSBOX_DATA_DIR
  const home = homedir()
  switch (process.platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', APP_NAME)
    case 'win32':
      return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_NAME)
    default:
      return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), APP_NAME)
  }
}
