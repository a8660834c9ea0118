import { useState } from 'react'
import type { ChatDetail } from '../../../../shared/api'
import { chartToPng } from '../../export/chart-image'
import { chatToMarkdown } from '../../export/markdown'
import { fileNameFrom } from '../../export/save'
import { useExporter } from '../../export/use-exporter'
import { useApp } from '../../state/app-state'
import type { ShownMessage } from '../../state/versions'
import { RenameField } from '../layout/RenameField'

// Above the messages: the chat's title (rename it in place) and exporting what is shown to Markdown.

export function ChatHeader({ chat, shown }: { chat: ChatDetail; shown: ShownMessage[] }): React.JSX.Element {
  const { project, renameChat, chats } = useApp()
  const save = useExporter()
  const [renaming, setRenaming] = useState(false)
  const [exporting, setExporting] = useState(false)
  // The list has the newest title (the first question names a chat while its detail is loaded).
  const title = chats.find((item) => item.id === chat.id)?.title ?? chat.title
  return (
    <header className="chat-header">
      {renaming ? (
        <RenameField title={title} onDone={(next) => (setRenaming(false), next !== null && next !== title ? void renameChat(chat.id, next) : undefined)} />
      ) : (
        <h2 className="chat-header-title" title={title}>
          {title}
        </h2>
      )}
      {!renaming && (
        <button className="icon-button" onClick={() => setRenaming(true)} aria-label={`Rename chat “${title}”`}>
          Rename
        </button>
      )}
      <span className="spacer" />
      <button
        className="button small"
        disabled={exporting || shown.length === 0}
        title="Save this chat as a Markdown file: questions, answers, SQL, result tables, charts as images, sources of cited numbers"
        data-testid="export-chat"
        onClick={() => {
          setExporting(true)
          void save(async () => ({
            suggestedName: fileNameFrom(title, 'md'),
            content: await chatToMarkdown({ title, projectName: project?.name ?? null, messages: shown.map((item) => item.message), exportedAt: new Date(), chartImage: chartToPng }),
            encoding: 'utf8',
            filter: { name: 'Markdown', extensions: ['md'] }
          })).finally(() => setExporting(false))
        }}
      >
        {exporting ? 'Exporting…' : 'Export Markdown'}
      </button>
    </header>
  )
}
