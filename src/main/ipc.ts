import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent } from 'electron'
import type { GlassboxApi, PushEvent } from '../shared/api'
import { errorMessage } from '../shared/error-message'
import { saveFileInput } from '../shared/save-file'
import { createOperations, OPERATION_NAMES, isOperationName } from './web/operations'
import { isTrustedRendererUrl } from './web/trusted-renderer'

// IPC for the desktop app: one `glassbox:<operation>` channel per operation, each validating its input
// with the operation's schema and accepting calls only from our own renderer; push events go to the window.

export const PUSH_CHANNEL = 'glassbox:push'

type Reply = { ok: true; value: unknown } | { ok: false; error: string }

export function registerIpc(
  api: GlassboxApi,
  window: BrowserWindow,
  rendererIndexFile: string = join(__dirname, '../renderer/index.html')
): () => void {
  const operations = createOperations(api)
  const devServerUrl = process.env.ELECTRON_RENDERER_URL

  function refusal(event: IpcMainInvokeEvent): string | null {
    const url = event.senderFrame?.url ?? ''
    if (isTrustedRendererUrl(url, rendererIndexFile, devServerUrl)) return null
    return `Refused: IPC call from an unknown page (${url || 'no frame'}).`
  }

  for (const name of OPERATION_NAMES) {
    if (!isOperationName(name)) continue
    ipcMain.handle(`glassbox:${name}`, async (event, input: unknown): Promise<Reply> => {
      const refused = refusal(event)
      if (refused) return { ok: false, error: refused }
      try {
        return { ok: true, value: await operations[name](input) }
      } catch (error) {
        return { ok: false, error: errorMessage(error) }
      }
    })
  }

  ipcMain.handle('glassbox:pickFolder', async (event): Promise<Reply> => {
    const refused = refusal(event)
    if (refused) return { ok: false, error: refused }
    const picked = await dialog.showOpenDialog(window, { title: 'Open a data project', properties: ['openDirectory'] })
    return { ok: true, value: picked.canceled ? null : (picked.filePaths[0] ?? null) }
  })
  ipcMain.handle('glassbox:pickFiles', async (event): Promise<Reply> => {
    const refused = refusal(event)
    if (refused) return { ok: false, error: refused }
    const picked = await dialog.showOpenDialog(window, { title: 'Attach files', properties: ['openFile', 'multiSelections'] })
    return { ok: true, value: picked.canceled ? [] : picked.filePaths }
  })

  // Exports: the renderer hands over the content; only the user, in the native dialog, picks where it goes.
  ipcMain.handle('glassbox:saveFile', async (event, input: unknown): Promise<Reply> => {
    const refused = refusal(event)
    if (refused) return { ok: false, error: refused }
    const parsed = saveFileInput.safeParse(input)
    if (!parsed.success) return { ok: false, error: `Invalid input for saveFile: ${parsed.error.issues.map((issue) => issue.message).join('; ')}` }
    const { suggestedName, content, encoding, filter } = parsed.data
    const picked = await dialog.showSaveDialog(window, { title: 'Export', defaultPath: suggestedName, filters: [filter] })
    if (picked.canceled || !picked.filePath) return { ok: true, value: null }
    try {
      await writeFile(picked.filePath, Buffer.from(content, encoding))
      return { ok: true, value: picked.filePath }
    } catch (error) {
      return { ok: false, error: `Could not save ${picked.filePath}: ${errorMessage(error)}` }
    }
  })

  const unsubscribe = api.subscribe((event: PushEvent) => {
    if (!window.isDestroyed()) window.webContents.send(PUSH_CHANNEL, event)
  })

  return () => {
    unsubscribe()
    for (const name of [...OPERATION_NAMES, 'pickFolder', 'pickFiles', 'saveFile']) ipcMain.removeHandler(`glassbox:${name}`)
  }
}
