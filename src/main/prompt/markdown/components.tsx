import {
  h,
  Fragment,
  type BlockNode,
  type Component,
  type MarkdownElement,
  type MarkdownNode,
  type MemoNode,
  type RenderedNode,
  type RenderedSection,
  type SectionInfo,
  type SectionNode
} from './jsx-runtime'
import { evaluate } from './render'

// The Markdown primitives. Each states its exact output; misuse throws at once naming the primitive and value.

interface WithChildren {
  children?: MarkdownNode
}

/**
 * Children joined by `separator` (default: a blank line); `indent` starts every line; `prefix` starts
 * non-empty output. Renders `''` when no child renders anything.
 * @example <Block separator={'\n'} indent="  ">{'a'}{'b'}</Block>  →  '  a\n  b'
 */
export function Block({ children, separator = '\n\n', indent = '', prefix = '' }: BlockProps): BlockNode {
  return { kind: 'block', children, separator, indent, prefix }
}
interface BlockProps extends WithChildren {
  separator?: string
  indent?: string
  prefix?: string
}

/** Inline: children joined by `''`. */
export function Span({ children }: WithChildren) {
  return <Block separator="">{children}</Block>
}

/** `## Title` — `level` is 1 to 6 (default 2). */
export function Title({ children, level = 2 }: WithChildren & { level?: number }) {
  if (!Number.isInteger(level) || level < 1 || level > 6) {
    throw new Error(`Title: level must be an integer from 1 to 6, got ${JSON.stringify(level)}`)
  }
  return <Span>{'#'.repeat(level) + ' '}{children}</Span>
}

export function Bold({ children }: WithChildren) {
  return <Span>**{children}**</Span>
}

export function Italic({ children }: WithChildren) {
  return <Span>*{children}*</Span>
}

export function Code({ children }: WithChildren) {
  return <Span>`{children}`</Span>
}

/** A fenced block; `header` (e.g. `sql`, or `['sql', 'title=x']` joined by a space) follows the opening fence. */
export function CodeBlock({ children, header = '' }: WithChildren & { header?: string | string[] }) {
  const fence = '```' + (Array.isArray(header) ? header.join(' ') : header)
  return <Block separator={'\n'}>{fence}{children}{'```'}</Block>
}

export function Link({ href, text }: { href: string; text: MarkdownNode }) {
  return <Span>[{text}]({href})</Span>
}

export function Br() {
  return '\n'
}

export function Hr() {
  return '---'
}

/**
 * Items joined by `\n`: each ListItem gets `- ` (or `N. ` when `ordered`); a nested List is indented one tab
 * deeper. A component inside a List is transparent: the ListItems and Lists it renders count as if written in
 * place. Anything else (text, a Section wrapping a whole list) is spliced in as it renders.
 */
export function List({ children, ordered = false }: WithChildren & { ordered?: boolean }) {
  let number = 0
  const lines = entriesOf(children).map(({ node, kind }) => {
    if (kind === 'item') return <Span>{ordered ? `${++number}. ` : '- '}{node}</Span>
    if (kind === 'list') return <Block indent={'\t'}>{node}</Block>
    return node
  })
  return <Block separator={'\n'}>{lines}</Block>
}

/** One item's text; a List among its children goes on the next lines, one tab deeper. */
export function ListItem({ children }: WithChildren) {
  const parts = flattenChildren(children)
  const sublists = parts.filter((part) => isElementOf(part, List))
  if (sublists.length === 0) return <Span>{children}</Span>
  return (
    <Block separator={'\n'}>
      <Span>{parts.filter((part) => !isElementOf(part, List))}</Span>
      {sublists.map((sublist) => (
        <Block indent={'\t'}>{sublist}</Block>
      ))}
    </Block>
  )
}

/** `title:` then the list; when `maxItems` cuts it, a last line `...(N more)`. */
export function TitledList({ title, children, maxItems }: WithChildren & { title: string; maxItems?: number }) {
  if (maxItems !== undefined && (!Number.isInteger(maxItems) || maxItems < 0)) {
    throw new Error(`TitledList: maxItems must be a whole number of 0 or more, got ${JSON.stringify(maxItems)}`)
  }
  const items = entriesOf(children).map((entry) => entry.node)
  const shown = maxItems === undefined ? items : items.slice(0, maxItems)
  const hidden = items.length - shown.length
  return (
    <Block separator={'\n'}>
      <Span>{title}:</Span>
      <List>{shown}</List>
      {hidden > 0 && `...(${hidden} more)`}
    </Block>
  )
}

/** Every line prefixed `> `; children joined by `\n`. */
export function Quote({ children }: WithChildren) {
  return <Block separator={'\n'} indent="> ">{children}</Block>
}

const XML_NAME = /^[A-Za-z_][\w.-]*$/

/** `<tag k="v">`, the children indented one tab, `</tag>`. */
export function XML({ tag, props = {}, children }: WithChildren & { tag: string; props?: Record<string, string> }) {
  if (!XML_NAME.test(tag)) throw new Error(`XML: tag must be an XML name, got ${JSON.stringify(tag)}`)
  const badKey = Object.keys(props).find((key) => !XML_NAME.test(key))
  if (badKey !== undefined) throw new Error(`XML: attribute name must be an XML name, got ${JSON.stringify(badKey)}`)
  const attributes = Object.entries(props).map(([key, value]) => ` ${key}=${JSON.stringify(value)}`)
  return (
    <Block separator={'\n'}>
      {`<${tag}${attributes.join('')}>`}
      <Block separator={'\n'} indent={'\t'}>{children}</Block>
      {`</${tag}>`}
    </Block>
  )
}

/**
 * Marks its children as one entry of the section map (id, title, producing component, sources). Renders its
 * children unchanged; an empty section leaves no entry.
 * @example <Section id="persona" title="Persona" sources={[]}><Persona /></Section>
 */
export function Section({ children, ...info }: WithChildren & SectionInfo): SectionNode {
  return { kind: 'section', info, children }
}

/**
 * Renders its one child element once per `on` object and reuses the text and sections afterwards. The child
 * must depend on nothing but `on` (e.g. the skills list of a project snapshot, which is replaced on change).
 * @example <Memo on={skills}><Skills skills={skills} /></Memo>
 */
export function Memo({ on, children }: { on: object; children: MarkdownElement }): MemoNode {
  return { kind: 'memo', on, child: children }
}

/** Inserts text rendered earlier as-is (no re-escaping), keeping its section map. */
export function Rendered({ result }: { result: { text: string; sections: readonly RenderedSection[]; markerFree?: boolean } }): RenderedNode {
  return { kind: 'rendered', text: result.text, sections: result.sections, markerFree: result.markerFree }
}

interface ListEntry {
  node: MarkdownNode
  kind: 'item' | 'list' | 'other'
}

function entriesOf(children: MarkdownNode): ListEntry[] {
  return flattenChildren(children).flatMap(entryOf)
}

function entryOf(node: MarkdownNode): ListEntry[] {
  if (isElementOf(node, ListItem)) return [{ node, kind: 'item' }]
  if (isElementOf(node, List)) return [{ node, kind: 'list' }]
  if (!isElement(node)) return [{ node, kind: 'other' }]
  // Look inside the component; what it rendered stays attributed to it (element paths, section owners).
  return entriesOf(evaluate(node)).map((entry) => ({ kind: entry.kind, node: renderedBy(node, entry.node) }))
}

/** An element of the same component whose output is already known. */
function renderedBy(component: MarkdownElement, output: MarkdownNode): MarkdownElement {
  return { kind: 'element', type: component.type, props: component.props, render: () => output }
}

/** Children as a flat list: arrays and fragments opened, nothing-nodes dropped. */
function flattenChildren(node: MarkdownNode): MarkdownNode[] {
  if (node === null || node === undefined || typeof node === 'boolean') return []
  if (isNodeArray(node)) return node.flatMap(flattenChildren)
  if (isElementOf(node, Fragment)) return flattenChildren(node.render())
  return [node]
}

function isNodeArray(node: MarkdownNode): node is readonly MarkdownNode[] {
  return Array.isArray(node)
}

function isElement(node: MarkdownNode): node is MarkdownElement {
  return typeof node === 'object' && node !== null && !isNodeArray(node) && node.kind === 'element'
}

function isElementOf(node: MarkdownNode, component: Component<never>): node is MarkdownElement {
  return isElement(node) && node.type === component
}
