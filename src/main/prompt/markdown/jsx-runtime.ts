// A tiny classic JSX runtime for prompts: `h` builds plain element objects, and `renderToMarkdown` turns the
// tree into text. No DOM, no React: components are plain functions evaluated at render time.
import type { LazyCount } from './lazy-count'

/** Anything a component may return or take as children. */
export type MarkdownNode =
  | string
  | number
  | boolean
  | null
  | undefined
  | MarkdownElement
  | LayoutNode
  | readonly MarkdownNode[]

/** A function component: props in, nodes out. */
export type Component<P> = (props: P) => MarkdownNode

/** A `<Component …/>` expression, not yet evaluated. */
export interface MarkdownElement {
  readonly kind: 'element'
  /** Kept for identity checks (a List looks for its ListItems) and for error paths. */
  readonly type: Component<never>
  readonly props: object
  readonly render: () => MarkdownNode
}

/** Layout instructions the renderer understands directly; primitives return them. */
export type LayoutNode = BlockNode | SectionNode | RenderedNode | MemoNode

export interface BlockNode {
  readonly kind: 'block'
  readonly children: MarkdownNode
  readonly separator: string
  readonly indent: string
  readonly prefix: string
}

/** What a section records about itself; the renderer adds its range and token count. */
export interface SectionInfo {
  id: string
  title: string
  /** Defaults to the nearest enclosing component that is not a primitive. */
  component?: string
  sources: string[]
}

export interface SectionNode {
  readonly kind: 'section'
  readonly info: SectionInfo
  readonly children: MarkdownNode
}

/** Text rendered earlier, inserted as-is together with its section map (wrappers use this). */
export interface RenderedNode {
  readonly kind: 'rendered'
  readonly text: string
  readonly sections: readonly RenderedSection[]
  /** Whoever rendered it knows the text holds no chat-template control marker (see LocatedText). */
  readonly markerFree?: boolean
}

/** An element rendered once per `on` object, then reused (see the Memo primitive). */
export interface MemoNode {
  readonly kind: 'memo'
  readonly on: object
  readonly child: MarkdownElement
}

/** A section located in rendered text, before token counting. */
export interface RenderedSection {
  id: string
  title: string
  component: string
  sources: string[]
  start: number
  end: number
  /**
   * Token count of this exact text, counted when first read and then kept (memoised parts share it);
   * replaced by a count of the indented text when the text is re-indented.
   */
  tokens?: LazyCount
}

export function h<P extends object>(type: Component<P>, props: P | null, ...children: MarkdownNode[]): MarkdownElement {
  // JSX children (when given) win over a `children` prop, as in React.
  const merged =
    children.length === 0
      ? Object.assign({}, props)
      : Object.assign({}, props, { children: children.length === 1 ? children[0] : children })
  return new JsxElement(type, merged)
}

// A class rather than an object with a closure: elements are created by the thousand on big projects.
class JsxElement<P extends object> implements MarkdownElement {
  readonly kind = 'element'
  constructor(
    readonly type: Component<P>,
    readonly props: P
  ) {}

  render(): MarkdownNode {
    return this.type(this.props)
  }
}

/** `<>…</>`: its children, joined by the enclosing block's separator. */
export function Fragment({ children }: { children?: MarkdownNode }): MarkdownNode {
  return children
}

// TypeScript looks up `h.JSX` for the classic factory `h`, so the types below check every component's props.
export declare namespace h {
  namespace JSX {
    type Element = MarkdownElement
    type ElementType = Component<never>
    interface ElementChildrenAttribute {
      children: unknown
    }
    // Every primitive is a function component, so there are no intrinsic (lower-case) elements.
    type IntrinsicElements = Record<never, never>
    type IntrinsicAttributes = Record<never, never>
  }
}
