import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { app, BrowserWindow, dialog, session, shell } from 'electron'
import { createGlassbox } from './app/create-glassbox'
import { registerIpc } from './ipc'
import { RENDERER_CSP } from './web/csp'
import { errorMessage } from '../shared/error-message'
import { keepBuildFilesBeside } from './build-cache'

// Window and lifecycle only; everything else in src/main is plain Node shared with the CLI and web mode.

// The app's build (out/main) keeps the tokenizer's rank table beside itself, as the command line's does.
keepBuildFilesBeside(__dirname)

type GlassboxInstance = Awaited<ReturnType<typeof createGlassbox>>
let glassbox: Promise<GlassboxInstance> | null = null

/** The services, created once for the app's lifetime (the store lives in the app's user-data folder). */
function services(): Promise<GlassboxInstance> {
  // GLASSBOX_PROJECT, else the project used last, else (first start) the sample project shipped in resources/.
  const sample = join(app.getAppPath(), 'resources', 'sample-project')
  glassbox ??= createGlassbox({
    dataDir: app.getPath('userData'),
    projectPath: process.env.GLASSBOX_PROJECT,
    reopenLastProject: true,
    defaultProjectPath: existsSync(sample) ? sample : undefined
  })
  return glassbox
}

/** The same strict CSP as web mode, as a header too (the dev server serves over http). */
function lockDownSession(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP] } })
  })
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
}

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    show: false,
    title: 'Glassbox',
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false
    }
  })
  window.once('ready-to-show', () => window.show())
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())
  // The page loads once its IPC handlers exist, so its first calls never miss them.
  const unregister = services().then((api) => {
    const dispose = registerIpc(api, window)
    if (process.env.ELECTRON_RENDERER_URL) void window.loadURL(process.env.ELECTRON_RENDERER_URL)
    else void window.loadFile(join(__dirname, '../renderer/index.html'))
    return dispose
  })
  unregister.catch((error: unknown) => {
    dialog.showErrorBox('Glassbox could not start', errorMessage(error))
    app.quit()
  })
  window.on('closed', () => void unregister.then((dispose) => dispose()).catch(() => undefined))
}

void app.whenReady().then(() => {
  lockDownSession()
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('will-quit', () => {
  void glassbox?.then((api) => api.close())
})
