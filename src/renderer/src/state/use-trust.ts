import { useCallback, useEffect, useState } from 'react'
import type { McpStatus, TrustEntryView } from '../../../shared/trust'
import { errorMessage } from '../../../shared/error-message'
import { useApp } from './app-state'

// What the open project asks beyond its folder (servers, environment variables, processes) and the state
// of its MCP servers, kept current from the push events; shared by the trust dialog and settings.

export interface TrustState {
  entries: TrustEntryView[]
  mcp: McpStatus | null
  approve(fingerprint: string): Promise<void>
  revoke(fingerprint: string): Promise<void>
  restart(name: string): Promise<void>
  /** The dialog opens when the project was refused something, or on the user's request. */
  dialogOpen: boolean
  showDialog(): void
  hideDialog(): void
}

export function useTrust(): TrustState {
  const { api, project, onPush, notify, bumpRevision } = useApp()
  const [entries, setEntries] = useState<TrustEntryView[]>([])
  const [mcp, setMcp] = useState<McpStatus | null>(null)
  const [dialogOpen, setDialogOpen] = useState(false)
  const root = project?.root ?? null

  useEffect(() => {
    if (!root) return
    let cancelled = false
    void Promise.all([api.getTrust({}), api.getMcpStatus({})]).then(
      ([loadedEntries, loadedMcp]) => {
        if (cancelled) return
        setEntries(loadedEntries)
        setMcp(loadedMcp)
      },
      (error: unknown) => !cancelled && notify('error', `Could not read what this project asks: ${errorMessage(error)}`)
    )
    const unsubscribe = onPush((event) => {
      if (event.channel === 'mcp-changed') {
        setMcp(event.status)
        bumpRevision()
      }
      // The refused request is among everything still unapproved; approved ones stay as they were.
      if (event.channel === 'trust-requested') {
        setDialogOpen(true)
        void api.getTrust({}).then((loaded) => !cancelled && setEntries(loaded), () => undefined)
      }
      if (event.channel === 'project-changed') void api.getTrust({}).then((loaded) => !cancelled && setEntries(loaded), () => undefined)
    })
    return () => {
      cancelled = true
      unsubscribe()
    }
  }, [api, root, onPush, notify, bumpRevision])

  const approve = useCallback(
    async (fingerprint: string) => {
      try {
        setEntries(await api.approveTrust({ fingerprint }))
        setMcp(await api.getMcpStatus({}))
        bumpRevision()
      } catch (error) {
        notify('error', `Could not approve it: ${errorMessage(error)}`)
      }
    },
    [api, notify, bumpRevision]
  )
  const revoke = useCallback(
    async (fingerprint: string) => {
      try {
        setEntries(await api.revokeTrust({ fingerprint }))
        setMcp(await api.getMcpStatus({}))
        bumpRevision()
      } catch (error) {
        notify('error', `Could not revoke it: ${errorMessage(error)}`)
      }
    },
    [api, notify, bumpRevision]
  )
  const restart = useCallback(
    async (name: string) => {
      try {
        setMcp(await api.restartMcpServer({ name }))
      } catch (error) {
        notify('error', `Could not restart ${name}: ${errorMessage(error)}`)
      }
    },
    [api, notify]
  )
  const showDialog = useCallback(() => setDialogOpen(true), [])
  const hideDialog = useCallback(() => setDialogOpen(false), [])
  return { entries, mcp, approve, revoke, restart, dialogOpen, showDialog, hideDialog }
}
