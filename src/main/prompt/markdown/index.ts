export { h, Fragment } from './jsx-runtime'
export type { Component, MarkdownElement, MarkdownNode, RenderedSection, SectionInfo } from './jsx-runtime'
export {
  Block,
  Bold,
  Br,
  Code,
  CodeBlock,
  Hr,
  Italic,
  Link,
  List,
  ListItem,
  Memo,
  Quote,
  Rendered,
  Section,
  Span,
  Title,
  TitledList,
  XML
} from './components'
export {
  MarkdownRenderError,
  renderLocated,
  renderToMarkdown,
  renderWithSections,
  withTokens,
  type LocatedText,
  type RenderResult
} from './render'
