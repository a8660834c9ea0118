import type { PromptSection } from '../../../shared/prompt'
import { countTokens } from '../tokens'
import type { MarkdownElement, MarkdownNode, RenderedSection } from './jsx-runtime'

// Walks the element tree once. Each node renders to a chunk (text + the sections inside it, located relative
// to that text); joining and indenting chunks shifts their sections, so the final map is exact.

export interface RenderResult {
  text: string
  sections: PromptSection[]
}

/** A render failure, with the element path where it happened (outermost first). */
export class MarkdownRenderError extends Error {
  readonly elementPath: string[]
  constructor(readonly reason: string, elementPath: string[]) {
    super(reason)
    this.name = 'MarkdownRenderError'
    this.elementPath = elementPath
    this.message = describe(reason, elementPath)
  }

  /** Records one more enclosing component, as the error travels up the tree. */
  within(component: string): MarkdownRenderError {
    this.elementPath.unshift(component)
    this.message = describe(this.reason, this.elementPath)
    return this
  }
}

// Layout primitives are left out of error paths (the failing one itself is kept): they say nothing useful.
const LAYOUT_COMPONENTS = new Set(['Block', 'Span', 'Fragment', 'List', 'ListItem', 'Section'])

function describe(reason: string, path: string[]): string {
  const readable = path.filter((name, index) => index === path.length - 1 || !LAYOUT_COMPONENTS.has(name))
  return `${reason} (at ${readable.join(' > ')})`
}

/** Evaluates one element, naming it in any error that escapes. */
export function evaluate(element: MarkdownElement): MarkdownNode {
  try {
    return element.render()
  } catch (error) {
    if (error instanceof MarkdownRenderError) throw error.within(componentName(element))
    throw new MarkdownRenderError(error instanceof Error ? error.message : String(error), [componentName(element)])
  }
}

export function componentName(element: MarkdownElement): string {
  return element.type.name || 'Anonymous'
}

/** Rendered text with its sections located, before token counting. */
export interface LocatedText {
  text: string
  sections: RenderedSection[]
}

type Chunk = LocatedText

const EMPTY: Chunk = { text: '', sections: [] }

/** Renders a tree to Markdown text. */
export function renderToMarkdown(node: MarkdownNode): string {
  return renderNode(node, '', []).text
}

/** Renders a tree to Markdown text plus its section map, each section with its token count. */
export function renderWithSections(node: MarkdownNode): RenderResult {
  const { text, sections } = renderLocated(node)
  return { text, sections: sections.map((section) => withTokens(text, section)) }
}

/** Renders a tree to Markdown text plus its located sections, leaving token counts for the final text. */
export function renderLocated(node: MarkdownNode): LocatedText {
  return renderNode(node, '', [])
}

/** A located section with the token count of its slice of `text`. */
export function withTokens(text: string, section: RenderedSection): PromptSection {
  return { ...section, tokens: countTokens(text.slice(section.start, section.end)) }
}

function renderNode(node: MarkdownNode, separator: string, path: string[]): Chunk {
  if (typeof node === 'string') return node.length === 0 ? EMPTY : { text: node, sections: [] }
  if (typeof node === 'number') return { text: String(node), sections: [] }
  if (node === null || node === undefined || typeof node === 'boolean') return EMPTY
  if (isNodeArray(node)) return join(node, separator, path)
  switch (node.kind) {
    case 'element':
      return renderElement(node, separator, path)
    case 'block': {
      const inner = renderNode(node.children, node.separator, path)
      if (inner.text.length === 0) return EMPTY
      return prepend(node.prefix, indentLines(inner, node.indent))
    }
    case 'section': {
      const inner = renderNode(node.children, separator, path)
      if (inner.text.length === 0) return EMPTY
      const component = node.info.component ?? nearestComponent(path)
      const section = { ...node.info, component, start: 0, end: inner.text.length }
      return { text: inner.text, sections: [section, ...inner.sections] }
    }
    case 'rendered':
      return { text: node.text, sections: [...node.sections] }
  }
}

function isNodeArray(node: MarkdownNode): node is readonly MarkdownNode[] {
  return Array.isArray(node)
}

function renderElement(element: MarkdownElement, separator: string, path: string[]): Chunk {
  const name = componentName(element)
  const result = evaluate(element)
  // The separator carries through components and fragments: only a Block (or Span) sets a new one.
  try {
    return renderNode(result, separator, [...path, name])
  } catch (error) {
    throw error instanceof MarkdownRenderError ? error.within(name) : error
  }
}

function nearestComponent(path: string[]): string {
  for (let index = path.length - 1; index >= 0; index--) if (!LAYOUT_COMPONENTS.has(path[index])) return path[index]
  return 'Section'
}

function join(nodes: readonly MarkdownNode[], separator: string, path: string[]): Chunk {
  let text = ''
  const sections: RenderedSection[] = []
  for (const node of nodes) {
    const chunk = renderNode(node, separator, path)
    // Children that render nothing leave no stray separator behind.
    if (chunk.text.length === 0) continue
    if (text.length > 0) text += separator
    for (const section of chunk.sections) sections.push(shift(section, text.length))
    text += chunk.text
  }
  return { text, sections }
}

function prepend(prefix: string, chunk: Chunk): Chunk {
  if (prefix.length === 0) return chunk
  return { text: prefix + chunk.text, sections: chunk.sections.map((section) => shift(section, prefix.length)) }
}

function indentLines(chunk: Chunk, indent: string): Chunk {
  if (indent.length === 0) return chunk
  const text = indent + chunk.text.replaceAll('\n', '\n' + indent)
  // Every line start before a position gains one indent; a section starting a line starts after its indent.
  const moved = (position: number): number => position + indent.length * (1 + countNewlines(chunk.text, position))
  const sections = chunk.sections.map((section) => ({ ...section, start: moved(section.start), end: moved(section.end) }))
  return { text, sections }
}

function countNewlines(text: string, before: number): number {
  let count = 0
  for (let index = text.indexOf('\n'); index !== -1 && index < before; index = text.indexOf('\n', index + 1)) count++
  return count
}

export function shift(section: RenderedSection, offset: number): RenderedSection {
  return offset === 0 ? section : { ...section, start: section.start + offset, end: section.end + offset }
}
