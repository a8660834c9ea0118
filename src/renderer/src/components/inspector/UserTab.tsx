import type { PromptPreview } from '../../../../shared/prompt'
import type { Draft } from '../../state/draft'
import { LongText } from './LongText'

// The user prompt as sent: the bare question, or the template filled with the metadata-only context block.

export function UserTab({ preview, draft }: { preview: PromptPreview; draft: Draft | null }): React.JSX.Element {
  const templated = preview.user.includes('```json')
  return (
    <div className="user-tab">
      <div className="tab-toolbar">
        <span className="badge" title={templated ? 'user-prompt.md template' : 'bare question (no template)'}>
          {templated ? 'question with context' : 'question only'}
        </span>
        <span className="muted small">{templated ? 'Context block: file metadata only; the model reads contents with tools.' : 'No files or earlier results: the question is sent as typed.'}</span>
      </div>
      {draft && (draft.skill || draft.tables.length > 0 || draft.attachments.length > 0) && (
        <dl className="variables">
          {draft.skill && (
            <>
              <dt>Skill</dt>
              <dd>
                <code>{draft.skill}</code>
              </dd>
            </>
          )}
          {draft.tables.length > 0 && (
            <>
              <dt>Tables</dt>
              <dd>{draft.tables.map((table) => <code key={table}>{table}</code>)}</dd>
            </>
          )}
          {draft.attachments.length > 0 && (
            <>
              <dt>Files</dt>
              <dd>{draft.attachments.map((path) => <code key={path}>{path}</code>)}</dd>
            </>
          )}
        </dl>
      )}
      {preview.user ? <LongText text={preview.user} testId="user-text" /> : <p className="muted">Type a question to see the user prompt.</p>}
    </div>
  )
}
