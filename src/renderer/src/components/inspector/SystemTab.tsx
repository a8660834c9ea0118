import { useEffect, useMemo, useRef, useState } from 'react'
import type { OverrideMode, PromptPreview, PromptSection } from '../../../../shared/prompt'
import { OVERRIDE_LABELS } from '../common/plain-words'
import { plural } from '../../../../shared/format-count'
import { estimateNote, sectionTokens } from '../../../../shared/section-tokens'
import { formatTokens } from './format'

// The system prompt exactly as sent, with an outline of its sections (tokens, sources, component).
// Clicking a section highlights its character range in the text and scrolls to it.

const OVERRIDE_TEXT: Record<OverrideMode, string> = {
  default: 'Built-in prompt',
  replaced: 'Replaced by the project’s prompt file',
  wrapped: 'Project file wraps the built-in prompt',
  runtime: 'Runtime override (complete prompt given to this run)'
}

export function OverrideBadge({ mode }: { mode: OverrideMode }): React.JSX.Element {
  return (
    <span className={`badge override-${mode}`} data-testid="override-mode" data-mode={mode} title={`${OVERRIDE_TEXT[mode]} (override mode: ${mode})`}>
      {OVERRIDE_LABELS[mode]}
    </span>
  )
}

export function SystemTab({ preview }: { preview: PromptPreview }): React.JSX.Element {
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const highlight = useRef<HTMLElement>(null)
  const text = useRef<HTMLPreElement>(null)
  const selected = preview.sections.find((section) => section.id === selectedId) ?? null
  // One number for one thing: the whole system prompt as the Request tab counts it, and rows that add up to it.
  const { shown: shownTokens, outer, total, between } = useMemo(() => sectionTokens(preview), [preview])

  // Scroll only the prompt text, so the outline stays where the user clicked.
  useEffect(() => {
    const pane = text.current
    const mark = highlight.current
    if (pane && mark) pane.scrollTop = mark.offsetTop - 8
  }, [selectedId])

  return (
    <div className="system-tab">
      <div className="tab-toolbar">
        <OverrideBadge mode={preview.overrideMode} />
        <span className="muted small">{OVERRIDE_TEXT[preview.overrideMode]}</span>
        <span className="spacer" />
        <span className="muted small">
          <span data-testid="system-total" title={`Tokens ${estimateNote(preview.budget?.tokenScale)}`}>
            {plural(preview.sections.length, 'section')} · {formatTokens(total)} tokens ({estimateNote(preview.budget?.tokenScale)})
          </span>
        </span>
      </div>
      {preview.overrideMode === 'runtime' && <div className="notice">This run was given a complete system prompt; sections, memory and overrides below do not apply.</div>}
      <ol className="outline" data-testid="outline">
        {preview.sections.map((section) => (
          <OutlineItem key={section.id} section={section} tokens={shownTokens(section)} total={total} nested={!outer.has(section.id)} selected={section.id === selectedId} onSelect={() => setSelectedId(section.id === selectedId ? null : section.id)} />
        ))}
        {preview.sections.length > 0 && between !== 0 && (
          <li className="outline-item outline-between" data-testid="outline-between" title="Headings and blank lines between the sections, and tokens that span two of them: counted in the whole prompt, not in any one section">
            <span className="outline-row">
              <span className="outline-title muted">Between sections</span>
              <span className="outline-tokens">{formatTokens(between)}</span>
            </span>
          </li>
        )}
        {preview.sections.length === 0 && <li className="muted small">No section map for this prompt.</li>}
      </ol>
      <pre className="prompt-text system-text" ref={text} data-testid="system-text" tabIndex={0}>
        {selected ? (
          <>
            {preview.system.slice(0, selected.start)}
            <mark ref={highlight} className="section-highlight">
              {preview.system.slice(selected.start, selected.end)}
            </mark>
            {preview.system.slice(selected.end)}
          </>
        ) : (
          preview.system
        )}
      </pre>
    </div>
  )
}

function OutlineItem(props: { section: PromptSection; tokens: number; total: number; nested: boolean; selected: boolean; onSelect(): void }): React.JSX.Element {
  const { section } = props
  const share = props.total > 0 ? (props.tokens / props.total) * 100 : 0
  return (
    <li className={`outline-item ${props.selected ? 'selected' : ''} ${props.nested ? 'nested' : ''}`} title={props.nested ? 'Part of the section above: its tokens are counted there too' : undefined}>
      <button onClick={props.onSelect} title={`${section.component} · characters ${section.start}–${section.end}`}>
        <span className="outline-title">{section.title}</span>
        <span className="outline-tokens">{formatTokens(props.tokens)}</span>
        <span className="outline-share" style={{ width: `${Math.max(2, share)}%` }} />
      </button>
      {props.selected && (
        <div className="outline-detail">
          <div>
            <span className="muted">Component</span> <code>{section.component}</code>
          </div>
          <div>
            <span className="muted">Sources</span> {section.sources.length === 0 ? <span className="muted">built in</span> : section.sources.map((source) => <code key={source}>{source}</code>)}
          </div>
          <div>
            <span className="muted">Characters</span> {section.start.toLocaleString()}–{section.end.toLocaleString()}
          </div>
        </div>
      )}
    </li>
  )
}
