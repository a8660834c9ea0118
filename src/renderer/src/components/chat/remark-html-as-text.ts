// A remark plugin: raw HTML in a model's answer becomes plain text, so `<script>` or `<img onerror>` is
// shown as the characters the model wrote and can never run or load anything. (rehype-raw is never used.)

interface MdNode {
  type: string
  value?: string
  children?: MdNode[]
}

const BLOCK_CONTAINERS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition'])

function asText(node: MdNode, inBlockContainer: boolean): MdNode {
  if (node.type !== 'html') return node
  const text: MdNode = { type: 'text', value: node.value ?? '' }
  return inBlockContainer ? { type: 'paragraph', children: [text] } : text
}

function convert(node: MdNode): void {
  if (!node.children) return
  const inBlockContainer = BLOCK_CONTAINERS.has(node.type)
  node.children = node.children.map((child) => asText(child, inBlockContainer))
  for (const child of node.children) convert(child)
}

export function remarkHtmlAsText() {
  return (tree: MdNode): undefined => {
    convert(tree)
  }
}
