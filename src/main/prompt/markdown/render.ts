import type { PromptSection } from '../../../shared/prompt'
import { countTokensPiecewise, PIECEWISE_FROM } from '../token-pieces'
import type { Component, MarkdownElement, MarkdownNode, MemoNode, RenderedSection } from './jsx-runtime'
import { errorMessage } from '../../../shared/error-message'
import { LazyCount } from './lazy-count'
import { containsControlMarker, LONGEST_MARKER, neverInMarker } from '../../agent/defang'

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
const LAYOUT_COMPONENTS = new Set(['Block', 'Span', 'Fragment', 'List', 'ListItem', 'Section', 'Memo'])

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
    throw new MarkdownRenderError(errorMessage(error), [componentName(element)])
  }
}

export function componentName(element: MarkdownElement): string {
  return element.type.name || 'Anonymous'
}

/** Rendered text with its sections located, before token counting. */
export interface LocatedText {
  text: string
  sections: RenderedSection[]
  /**
   * True when the text is known to hold no chat-template control marker (see agent/defang.ts), so it need not
   * be searched for one; absent or false when nobody knows (search it).
   */
  markerFree?: boolean
}

// Each chunk says whether it is known to be free of control markers, so the assembled prompt needs no search
// of its whole text: searching a text V8 holds as a tree of joined pieces makes it copy them all into one
// (~0.2 ms for a large project's 250 KB prompt), and a prompt after an edit is mostly memoised parts searched
// before. A join of marker-free parts is marker-free unless a marker spans a seam. No marker holds a space or
// a line break, so none spans a seam with one on either side (chunks note whether they start and end with
// one); any other seam between short texts is searched around, as far as a marker reaches.
interface Chunk extends LocatedText {
  markerFree: boolean
  /** STARTS_WITH_SPACE | ENDS_WITH_SPACE: whether its first and last characters can never be in a marker. */
  edges: number
}

const STARTS_WITH_SPACE = 1
const ENDS_WITH_SPACE = 2

const EMPTY: Chunk = { text: '', sections: [], markerFree: true, edges: 0 }

function textChunk(text: string): Chunk {
  return { text, sections: [], markerFree: !containsControlMarker(text), edges: edgesOf(text) }
}

/** The edges of a short or flat text (a piece of a component, a separator): reading a joined one copies it. */
function edgesOf(text: string): number {
  if (text.length === 0) return 0
  return (neverInMarker(text.charCodeAt(0)) ? STARTS_WITH_SPACE : 0) | (neverInMarker(text.charCodeAt(text.length - 1)) ? ENDS_WITH_SPACE : 0)
}

/** Whether no marker can span the seam between a text with edges `left` and one with edges `right`. */
function seamIsSafe(left: number, right: number): boolean {
  return (left & ENDS_WITH_SPACE) !== 0 || (right & STARTS_WITH_SPACE) !== 0
}

/** Seams between texts longer than this are not searched around: taking a joined text's end would copy all of it. */
const SEARCHED_AROUND_SEAM = 1024

/**
 * Whether `before`, then `separator`, then `after` hold no marker that `before` and `after` (each free of
 * markers) do not hold alone: none in the separator and none across either seam. False when that is not known.
 */
function seamsAreFree(before: string, beforeEdges: number, separator: Chunk, after: Chunk): boolean {
  const safe =
    separator.text.length === 0
      ? seamIsSafe(beforeEdges, after.edges)
      : separator.markerFree && seamIsSafe(beforeEdges, separator.edges) && seamIsSafe(separator.edges, after.edges)
  if (safe) return true
  if (before.length > SEARCHED_AROUND_SEAM || after.text.length > SEARCHED_AROUND_SEAM) return false
  // A marker found here lies across a seam or in the separator: neither side holds one of its own.
  const reach = LONGEST_MARKER - 1
  return !containsControlMarker(before.slice(-reach) + separator.text + after.text.slice(0, reach))
}

/** Renders a tree to Markdown text. */
export function renderToMarkdown(node: MarkdownNode): string {
  return renderNode(node, '', null).text
}

/** Renders a tree to Markdown text plus its section map, each section with its token count. */
export function renderWithSections(node: MarkdownNode): RenderResult {
  const { text, sections } = renderLocated(node)
  return { text, sections: sections.map((section) => withTokens(text, section)) }
}

/** Renders a tree to Markdown text plus its located sections (as the wrappers and overrides shift them). */
export function renderLocated(node: MarkdownNode): LocatedText {
  const { text, sections, markerFree } = renderNode(node, '', null)
  return { text, sections, markerFree }
}

/**
 * A located section with its token count: the one known from render time, else that of its slice of `text`.
 * A count not taken yet is taken when first read (the inspector, the CLI) and then kept: the prompt's text is
 * ready without waiting for BPE over a 200 KB RULES.md in a fresh process. A count already known (memoised
 * parts, after the first read) is a plain value, which is ten times cheaper to make than a getter.
 */
export function withTokens(text: string, section: RenderedSection, pendingCounts?: Array<LazyCount | null>): PromptSection {
  const { id, title, component, sources, start, end } = section
  const count = section.tokens ?? new LazyCount(() => countTokensPiecewise(text.slice(start, end)))
  if (count.known) {
    pendingCounts?.push(null)
    return withCountSettled(section, count)
  }
  pendingCounts?.push(count)
  return {
    id,
    title,
    component,
    sources,
    start,
    end,
    get tokens() {
      return count.read()
    }
  }
}

/**
 * `section` with the count `count` has taken as a plain value: a section whose count is known, or one withTokens
 * gave a getter whose count has been read since (for a prompt kept to be given out again: reading a getter costs
 * ten times more, and a large prompt's ~400 counts are read at every message).
 */
export function withCountSettled(section: RenderedSection | PromptSection, count: LazyCount): PromptSection {
  const { id, title, component, sources, start, end } = section
  return { id, title, component, sources, start, end, tokens: count.read() }
}

// The components being rendered, innermost first: a cheap, shared path for section owners.
interface PathStep {
  name: string
  parent: PathStep | null
}

// Chunks own their section objects (nothing else holds them), so joining and indenting move them in place.
function renderNode(node: MarkdownNode, separator: string, path: PathStep | null): Chunk {
  if (typeof node === 'string') return node.length === 0 ? EMPTY : textChunk(node)
  if (typeof node === 'number') return textChunk(String(node))
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
      const { id, title, sources } = node.info
      const component = node.info.component ?? nearestComponent(path)
      // Counted on this section's own text (when asked): slicing the whole output later would copy all of it.
      const tokens = sectionTokens(inner)
      const section = { id, title, component, sources, start: 0, end: inner.text.length, tokens }
      return { text: inner.text, sections: [section, ...inner.sections], markerFree: inner.markerFree, edges: inner.edges }
    }
    case 'rendered':
      // Its edges are not read (that would copy a joined text): a seam with it is safe only from the other side.
      return { text: node.text, sections: node.sections.map(copySection), markerFree: node.markerFree === true, edges: 0 }
    case 'memo':
      return renderMemo(node, separator, path)
  }
}

/**
 * A section's token count, counted when first asked: a long section adds up its sub-sections' counts and
 * counts only the text between them, piecewise, so 300 skills or 50 rule blocks are not counted a second time
 * as one long text. Sub-sections start and end at line breaks, where BPE splits anyway: the sum is the whole
 * count, give or take a token at a seam. Positions are taken now: joining moves the section objects later.
 */
function sectionTokens(inner: Chunk): LazyCount {
  const { text, sections } = inner
  if (text.length < PIECEWISE_FROM || sections.length === 0) return new LazyCount(() => countTokensPiecewise(text))
  const counted: { start: number; end: number; tokens: LazyCount }[] = []
  let at = 0
  for (const child of sections) {
    // Nested inside a sub-section already counted, or not counted itself: its text is counted with the rest.
    if (child.start < at || child.tokens === undefined) continue
    counted.push({ start: child.start, end: child.end, tokens: child.tokens })
    at = child.end
  }
  return new LazyCount(() => {
    let total = 0
    let from = 0
    for (const child of counted) {
      total += countTokensPiecewise(text.slice(from, child.start)) + child.tokens.read()
      from = child.end
    }
    return total + countTokensPiecewise(text.slice(from))
  })
}

// Memo results by `on` object, then by the child's component; copies go out, as chunks are moved in place.
const memoCache = new WeakMap<object, Map<Component<never>, StoredChunk>>()

interface StoredChunk extends Chunk {
  /** Whether its text was flattened (at its first reuse; then it is searched for markers if not known free). */
  flat: boolean
}

function renderMemo(node: MemoNode, separator: string, path: PathStep | null): Chunk {
  let byComponent = memoCache.get(node.on)
  if (!byComponent) {
    byComponent = new Map()
    memoCache.set(node.on, byComponent)
  }
  let stored = byComponent.get(node.child.type)
  if (!stored) {
    const chunk = renderNode(node.child, separator, path)
    stored = { text: chunk.text, sections: chunk.sections.map(copySection), markerFree: chunk.markerFree, edges: chunk.edges, flat: false }
    byComponent.set(node.child.type, stored)
  } else if (!stored.flat) {
    flatten(stored.text)
    stored.flat = true
    // Flat, it is searched in microseconds, once for all its reuses.
    if (!stored.markerFree) stored.markerFree = !containsControlMarker(stored.text)
  }
  return { text: stored.text, sections: stored.sections.map(copySection), markerFree: stored.markerFree, edges: stored.edges }
}

// Joined text is a tree of string pieces; flattening a reused one once saves walking its thousands of pieces
// again every time it is inserted. Not before its first reuse: the prompt asked for after an open or an edit
// then copies a 200 KB RULES.md once, into its own text, where flattening when made copied it twice (the count,
// when read, flattens it in any case). Taking a substring makes V8 flatten the joined string in place, so the
// same string object, which a section's pending token count also holds, is flat for every reader.
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- written, never read: the write is the point
let lastFlattened = ''
function flatten(text: string): void {
  // Kept (its first character only), so the substring is not optimised away.
  lastFlattened = text.slice(0, 1)
}

// Field by field, in one order, as every section is made: one object shape for all of them (a spread copy
// keeps each source's own order), which keeps the renderer's property reads monomorphic.
function copySection({ id, title, component, sources, start, end, tokens }: RenderedSection): RenderedSection {
  return { id, title, component, sources, start, end, tokens }
}

function isNodeArray(node: MarkdownNode): node is readonly MarkdownNode[] {
  return Array.isArray(node)
}

function renderElement(element: MarkdownElement, separator: string, path: PathStep | null): Chunk {
  const name = componentName(element)
  const result = evaluate(element)
  // The separator carries through components and fragments: only a Block (or Span) sets a new one.
  try {
    return renderNode(result, separator, { name, parent: path })
  } catch (error) {
    throw error instanceof MarkdownRenderError ? error.within(name) : error
  }
}

function nearestComponent(path: PathStep | null): string {
  for (let step = path; step !== null; step = step.parent) if (!LAYOUT_COMPONENTS.has(step.name)) return step.name
  return 'Section'
}

function join(nodes: readonly MarkdownNode[], separator: string, path: PathStep | null): Chunk {
  let text = ''
  let sections: RenderedSection[] = []
  let markerFree = true
  let edges = 0
  /** The separator as a chunk (its markers and edges), made at the first seam. */
  let between: Chunk | null = null
  for (const node of nodes) {
    const chunk = renderNode(node, separator, path)
    // Children that render nothing leave no stray separator behind.
    if (chunk.text.length === 0) continue
    markerFree &&= chunk.markerFree
    if (text.length === 0) {
      edges = chunk.edges
    } else {
      between ??= separator.length === 0 ? EMPTY : textChunk(separator)
      markerFree &&= seamsAreFree(text, edges, between, chunk)
      edges = (edges & STARTS_WITH_SPACE) | (chunk.edges & ENDS_WITH_SPACE)
      text += separator
    }
    if (text.length === 0) sections = chunk.sections
    else for (const section of chunk.sections) sections.push(moveBy(section, text.length))
    text += chunk.text
  }
  return { text, sections, markerFree, edges }
}

function prepend(prefix: string, chunk: Chunk): Chunk {
  if (prefix.length === 0) return chunk
  for (const section of chunk.sections) moveBy(section, prefix.length)
  const before = textChunk(prefix)
  const markerFree = chunk.markerFree && before.markerFree && seamsAreFree(prefix, before.edges, EMPTY, chunk)
  return { text: prefix + chunk.text, sections: chunk.sections, markerFree, edges: (before.edges & STARTS_WITH_SPACE) | (chunk.edges & ENDS_WITH_SPACE) }
}

function indentLines(chunk: Chunk, indent: string): Chunk {
  if (indent.length === 0) return chunk
  // Every line start before a position gains one indent; a section starting a line starts after its indent.
  const moved = (position: number): number => position + indent.length * (1 + countNewlines(chunk.text, position))
  const text = indent + chunk.text.replaceAll('\n', '\n' + indent)
  for (const section of chunk.sections) {
    const start = (section.start = moved(section.start))
    const end = (section.end = moved(section.end))
    // The indented text counts differently; counted here, on this chunk, rather than on a slice of the whole prompt.
    section.tokens = new LazyCount(() => countTokensPiecewise(text.slice(start, end)))
  }
  // Spaces and tabs between the lines join no marker's parts; anything else (a quote's `> `) is searched for.
  if (!isBlank(indent)) return { text, sections: chunk.sections, markerFree: false, edges: 0 }
  // A line break at its end is followed by the indent now, as blank as it was.
  return { text, sections: chunk.sections, markerFree: chunk.markerFree, edges: STARTS_WITH_SPACE | (chunk.edges & ENDS_WITH_SPACE) }
}

function isBlank(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (!neverInMarker(text.charCodeAt(index))) return false
  return true
}

function countNewlines(text: string, before: number): number {
  let count = 0
  for (let index = text.indexOf('\n'); index !== -1 && index < before; index = text.indexOf('\n', index + 1)) count++
  return count
}

function moveBy(section: RenderedSection, offset: number): RenderedSection {
  section.start += offset
  section.end += offset
  return section
}

/** A copy of a section moved by `offset` characters. */
export function shift(section: RenderedSection, offset: number): RenderedSection {
  return offset === 0 ? section : { ...section, start: section.start + offset, end: section.end + offset }
}
