import { lazy, Suspense } from 'react'

// Markdown, KaTeX and the highlighter are the heaviest code in the app: they load after the first paint,
// and until they arrive the text shows as plain text (same words, no formatting).

const Markdown = lazy(() => import('./Markdown').then((module) => ({ default: module.Markdown })))

export function LazyMarkdown({ text }: { text: string }): React.JSX.Element {
  return (
    <Suspense fallback={<div className="markdown plain-fallback">{text}</div>}>
      <Markdown text={text} />
    </Suspense>
  )
}
