import { useEffect, useRef } from 'react'

// App-wide keyboard shortcuts. One table drives both the handler and the help sheet, so the sheet never
// lists a shortcut that does not work. Ctrl on Windows and Linux, ⌘ on macOS.

export type ShortcutAction = 'newChat' | 'focusComposer' | 'toggleInspector' | 'searchChats' | 'help'

export interface Shortcut {
  action: ShortcutAction | 'stop' | 'renameChat' | 'deleteChat' | 'send'
  keys: string
  what: string
}

export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
const MOD = IS_MAC ? '⌘' : 'Ctrl'

export const SHORTCUTS: Shortcut[] = [
  { action: 'newChat', keys: `${MOD}+Shift+O`, what: 'New chat' },
  { action: 'focusComposer', keys: 'Shift+Esc', what: 'Focus the message box' },
  { action: 'send', keys: 'Enter', what: 'Send (Shift+Enter: new line)' },
  { action: 'stop', keys: 'Esc', what: 'Stop the answer being written' },
  { action: 'toggleInspector', keys: `${MOD}+I`, what: 'Show or hide the prompt inspector' },
  { action: 'searchChats', keys: `${MOD}+K`, what: 'Search chats and messages' },
  { action: 'renameChat', keys: 'F2', what: 'Rename the chat focused in the list' },
  { action: 'deleteChat', keys: 'Delete', what: 'Delete the chat focused in the list (asks first)' },
  { action: 'help', keys: `? or ${MOD}+/`, what: 'Show this list' }
]

function typingIn(target: unknown): boolean {
  if (typeof target !== 'object' || target === null || !('tagName' in target)) return false
  return ('isContentEditable' in target && target.isContentEditable === true) || ['INPUT', 'TEXTAREA', 'SELECT'].includes(String(target.tagName))
}

/** Which app shortcut a key press is, if any. */
export function shortcutOf(event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'> & { target: unknown }): ShortcutAction | null {
  const mod = IS_MAC ? event.metaKey : event.ctrlKey
  if (event.altKey) return null
  if (mod && event.shiftKey && event.code === 'KeyO') return 'newChat'
  if (mod && !event.shiftKey && event.code === 'KeyI') return 'toggleInspector'
  if (mod && !event.shiftKey && event.code === 'KeyK') return 'searchChats'
  if (mod && event.code === 'Slash') return 'help'
  if (!mod && event.shiftKey && event.key === 'Escape') return 'focusComposer'
  if (!mod && event.key === '?' && !typingIn(event.target)) return 'help'
  return null
}

export function useShortcuts(handlers: Record<ShortcutAction, () => void>): void {
  const current = useRef(handlers)
  current.current = handlers
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const action = shortcutOf(event)
      if (!action) return
      event.preventDefault()
      current.current[action]()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
