import { useCallback } from 'react'
import type { SaveFileInput } from '../../../shared/save-file'
import { errorMessage } from '../../../shared/error-message'
import { useApp } from '../state/app-state'
import { saveExport } from './save'

/** Saves an export and tells the user where it went, or why it could not be saved. */
export function useExporter(): (make: () => Promise<SaveFileInput> | SaveFileInput) => Promise<void> {
  const { transport, notify } = useApp()
  return useCallback(
    async (make) => {
      try {
        const saved = await saveExport(transport, await make())
        if (saved) notify('info', transport.saveFile ? `Saved to ${saved}.` : `Downloaded ${saved}.`)
      } catch (error) {
        notify('error', `Could not export: ${errorMessage(error)}`)
      }
    },
    [notify, transport]
  )
}
