import { contextBridge } from 'electron'

contextBridge.exposeInMainWorld('glassbox', { transport: 'ipc' })
