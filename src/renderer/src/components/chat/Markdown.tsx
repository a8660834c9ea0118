import 'katex/dist/katex.min.css'
import { memo } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import rehypeKatex from 'rehype-katex'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import { citationSource, citationsToLinks } from './citations'
import { escapeCurrency } from './escape-currency'
import { remarkHtmlAsText } from './remark-html-as-text'

// Model answers as Markdown: GFM tables, KaTeX math, highlighted code. Raw HTML is shown as literal text
// (never parsed), links open outside the app, and remote images are never fetched.

const components: Components = {
  a: ({ href, children }) => {
    const cited = citationSource(href)
    if (cited) {
      return (
        <span className="citation" title={`From query ${cited.queryId}, column ${cited.column}`}>
          {children}
        </span>
      )
    }
    return (
      <a href={href} target="_blank" rel="noreferrer noopener" title={href}>
        {children}
      </a>
    )
  },
  img: ({ alt, src }) => (
    <span className="md-image-placeholder" title={typeof src === 'string' ? src : undefined}>
      [image: {alt || 'untitled'}]
    </span>
  ),
  table: ({ children }) => (
    <div className="md-table-wrap">
      <table>{children}</table>
    </div>
  )
}

export const Markdown = memo(function Markdown({ text }: { text: string }): React.JSX.Element {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm, remarkMath, remarkHtmlAsText]}
        rehypePlugins={[rehypeKatex, [rehypeHighlight, { detect: false }]]}
        components={components}
      >
        {escapeCurrency(citationsToLinks(text))}
      </ReactMarkdown>
    </div>
  )
})
