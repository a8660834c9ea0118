import { describe, expect, it } from 'vitest'
import { h, Fragment } from './jsx-runtime'
import {
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
  Quote,
  Span,
  Title,
  TitledList,
  XML
} from './components'
import { renderToMarkdown } from './render'

// Exact output of every primitive, one behaviour per test.

describe('renderToMarkdown: plain nodes', () => {
  it('passes strings through', () => {
    expect(renderToMarkdown('hello *world*')).toBe('hello *world*')
  })

  it('stringifies numbers', () => {
    expect(renderToMarkdown(42)).toBe('42')
  })

  it('renders nothing for null, undefined and booleans', () => {
    expect(renderToMarkdown([null, undefined, true, false])).toBe('')
  })

  it('joins a top-level array with no separator', () => {
    expect(renderToMarkdown(['a', 'b', 1])).toBe('ab1')
  })

  it('calls function components as plain functions', () => {
    const Greeting = ({ name }: { name: string }) => `Hello ${name}`
    expect(renderToMarkdown(<Greeting name="Ada" />)).toBe('Hello Ada')
  })

  it('renders a fragment with the enclosing separator', () => {
    expect(renderToMarkdown(<Block>{'a'}<>{'b'}{'c'}</></Block>)).toBe('a\n\nb\n\nc')
  })
})

describe('Block', () => {
  it('joins children with a blank line by default', () => {
    expect(renderToMarkdown(<Block>{'a'}{'b'}</Block>)).toBe('a\n\nb')
  })

  it('joins children with a custom separator', () => {
    expect(renderToMarkdown(<Block separator=" | ">{'a'}{'b'}</Block>)).toBe('a | b')
  })

  it('leaves no stray separator for children that render nothing', () => {
    expect(renderToMarkdown(<Block>{'a'}{false}{null}{''}{'b'}</Block>)).toBe('a\n\nb')
  })

  it('renders empty children as the empty string', () => {
    expect(renderToMarkdown(<Block prefix="> " indent="  ">{null}</Block>)).toBe('')
  })

  it('prefixes every line with the indent', () => {
    expect(renderToMarkdown(<Block separator={'\n'} indent="  ">{'a'}{'b\nc'}</Block>)).toBe('  a\n  b\n  c')
  })

  it('puts the prefix once before non-empty output', () => {
    expect(renderToMarkdown(<Block separator={'\n'} prefix="Note: ">{'a'}{'b'}</Block>)).toBe('Note: a\nb')
  })

  it('joins an array child with its separator', () => {
    expect(renderToMarkdown(<Block separator=", ">{['x', 'y', 'z']}</Block>)).toBe('x, y, z')
  })

  it('carries its separator through a component that returns several nodes', () => {
    const Pair = () => ['left', 'right']
    expect(renderToMarkdown(<Block separator=" / "><Pair /></Block>)).toBe('left / right')
  })
})

describe('inline primitives', () => {
  it('Span joins children with nothing between them', () => {
    expect(renderToMarkdown(<Span>{'a'}{'b'}{3}</Span>)).toBe('ab3')
  })

  it('Span keeps JSX text and expressions on one line', () => {
    expect(renderToMarkdown(<Span>Total: {12} rows</Span>)).toBe('Total: 12 rows')
  })

  it('Bold wraps in double asterisks', () => {
    expect(renderToMarkdown(<Bold>x</Bold>)).toBe('**x**')
  })

  it('Italic wraps in single asterisks', () => {
    expect(renderToMarkdown(<Italic>x</Italic>)).toBe('*x*')
  })

  it('Code wraps in backticks', () => {
    expect(renderToMarkdown(<Code>SELECT 1</Code>)).toBe('`SELECT 1`')
  })

  it('Link renders [text](href)', () => {
    expect(renderToMarkdown(<Link href="https://example.com" text="site" />)).toBe('[site](https://example.com)')
  })

  it('Br renders a newline', () => {
    expect(renderToMarkdown(<Span>a<Br />b</Span>)).toBe('a\nb')
  })

  it('Hr renders three dashes', () => {
    expect(renderToMarkdown(<Hr />)).toBe('---')
  })
})

describe('Title', () => {
  it('defaults to level 2', () => {
    expect(renderToMarkdown(<Title>Persona</Title>)).toBe('## Persona')
  })

  it('renders level 1', () => {
    expect(renderToMarkdown(<Title level={1}>Instructions</Title>)).toBe('# Instructions')
  })

  it('renders level 6', () => {
    expect(renderToMarkdown(<Title level={6}>Deep</Title>)).toBe('###### Deep')
  })

  it('throws naming the primitive and the bad level', () => {
    expect(() => renderToMarkdown(<Title level={7}>Too deep</Title>)).toThrow(
      'Title: level must be an integer from 1 to 6, got 7 (at Title)'
    )
  })

  it('rejects a fractional level', () => {
    expect(() => renderToMarkdown(<Title level={1.5}>x</Title>)).toThrow('got 1.5')
  })
})

describe('CodeBlock', () => {
  it('fences the children without a header', () => {
    expect(renderToMarkdown(<CodeBlock>SELECT 1</CodeBlock>)).toBe('```\nSELECT 1\n```')
  })

  it('puts a string header after the opening fence', () => {
    expect(renderToMarkdown(<CodeBlock header="sql">SELECT 1</CodeBlock>)).toBe('```sql\nSELECT 1\n```')
  })

  it('joins a header array with spaces', () => {
    expect(renderToMarkdown(<CodeBlock header={['sql', 'title=q1']}>SELECT 1</CodeBlock>)).toBe(
      '```sql title=q1\nSELECT 1\n```'
    )
  })

  it('puts each child on its own line', () => {
    expect(renderToMarkdown(<CodeBlock>{'a'}{'b'}</CodeBlock>)).toBe('```\na\nb\n```')
  })
})

describe('List', () => {
  it('bullets each item with a dash', () => {
    expect(renderToMarkdown(<List><ListItem>a</ListItem><ListItem>b</ListItem></List>)).toBe('- a\n- b')
  })

  it('numbers items when ordered', () => {
    expect(renderToMarkdown(<List ordered><ListItem>a</ListItem><ListItem>b</ListItem></List>)).toBe('1. a\n2. b')
  })

  it('indents a nested list one tab deeper', () => {
    const list = (
      <List>
        <ListItem>a</ListItem>
        <List>
          <ListItem>b</ListItem>
        </List>
      </List>
    )
    expect(renderToMarkdown(list)).toBe('- a\n\t- b')
  })

  it('indents a list nested twice two tabs deeper', () => {
    const list = (
      <List>
        <ListItem>a</ListItem>
        <List>
          <ListItem>b</ListItem>
          <List>
            <ListItem>c</ListItem>
          </List>
        </List>
      </List>
    )
    expect(renderToMarkdown(list)).toBe('- a\n\t- b\n\t\t- c')
  })

  it('indents a list written inside an item under that item', () => {
    const list = (
      <List>
        <ListItem>
          a
          <List>
            <ListItem>b</ListItem>
          </List>
        </ListItem>
        <ListItem>c</ListItem>
      </List>
    )
    expect(renderToMarkdown(list)).toBe('- a\n\t- b\n- c')
  })

  it('numbers only the items of an ordered list, not its nested lists', () => {
    const list = (
      <List ordered>
        <ListItem>a</ListItem>
        <List>
          <ListItem>x</ListItem>
        </List>
        <ListItem>b</ListItem>
      </List>
    )
    expect(renderToMarkdown(list)).toBe('1. a\n\t- x\n2. b')
  })

  it('skips conditional items that are false', () => {
    const list = (showHidden: boolean) => (
      <List>
        <ListItem>a</ListItem>
        {showHidden && <ListItem>hidden</ListItem>}
        <ListItem>b</ListItem>
      </List>
    )
    expect(renderToMarkdown(list(false))).toBe('- a\n- b')
  })

  it('flattens mapped items next to written ones', () => {
    const list = (
      <List>
        <ListItem>first</ListItem>
        {['x', 'y'].map((name) => (
          <ListItem>{name}</ListItem>
        ))}
      </List>
    )
    expect(renderToMarkdown(list)).toBe('- first\n- x\n- y')
  })

  it('treats the items a component renders as its own items', () => {
    const Rules = () => (
      <>
        <ListItem>one</ListItem>
        <ListItem>two</ListItem>
      </>
    )
    expect(renderToMarkdown(<List><ListItem>zero</ListItem><Rules /></List>)).toBe('- zero\n- one\n- two')
  })

  it('renders an empty list as the empty string', () => {
    expect(renderToMarkdown(<List>{[]}</List>)).toBe('')
  })

  it('splices a plain string in without a bullet', () => {
    expect(renderToMarkdown(<List><ListItem>a</ListItem>{'note'}</List>)).toBe('- a\nnote')
  })
})

describe('TitledList', () => {
  it('renders the title with a colon, then the list', () => {
    expect(renderToMarkdown(<TitledList title="Tables"><ListItem>a</ListItem><ListItem>b</ListItem></TitledList>)).toBe(
      'Tables:\n- a\n- b'
    )
  })

  it('says how many items maxItems cut', () => {
    const items = ['a', 'b', 'c', 'd'].map((name) => <ListItem>{name}</ListItem>)
    expect(renderToMarkdown(<TitledList title="Tables" maxItems={2}>{items}</TitledList>)).toBe(
      'Tables:\n- a\n- b\n...(2 more)'
    )
  })

  it('adds no marker when maxItems is not reached', () => {
    const items = ['a', 'b'].map((name) => <ListItem>{name}</ListItem>)
    expect(renderToMarkdown(<TitledList title="Tables" maxItems={2}>{items}</TitledList>)).toBe('Tables:\n- a\n- b')
  })

  it('throws on a negative maxItems', () => {
    expect(() => renderToMarkdown(<TitledList title="T" maxItems={-1}><ListItem>a</ListItem></TitledList>)).toThrow(
      'TitledList: maxItems must be a whole number of 0 or more, got -1'
    )
  })
})

describe('Quote', () => {
  it('prefixes every line', () => {
    expect(renderToMarkdown(<Quote>{'first\nsecond'}</Quote>)).toBe('> first\n> second')
  })

  it('puts each child on its own quoted line', () => {
    expect(renderToMarkdown(<Quote>{'a'}{'b'}</Quote>)).toBe('> a\n> b')
  })
})

describe('XML', () => {
  it('wraps children in the tag, indented one tab', () => {
    expect(renderToMarkdown(<XML tag="context">{'a\nb'}</XML>)).toBe('<context>\n\ta\n\tb\n</context>')
  })

  it('renders props as quoted attributes', () => {
    expect(renderToMarkdown(<XML tag="file" props={{ path: 'a.md', kind: 'doc' }}>x</XML>)).toBe(
      '<file path="a.md" kind="doc">\n\tx\n</file>'
    )
  })

  it('escapes quotes inside attribute values', () => {
    expect(renderToMarkdown(<XML tag="q" props={{ title: 'say "hi"' }}>x</XML>)).toBe('<q title="say \\"hi\\"">\n\tx\n</q>')
  })

  it('renders an empty element on two lines', () => {
    expect(renderToMarkdown(<XML tag="empty">{null}</XML>)).toBe('<empty>\n</empty>')
  })

  it('throws naming a bad tag', () => {
    expect(() => renderToMarkdown(<XML tag="not a tag">x</XML>)).toThrow('XML: tag must be an XML name, got "not a tag"')
  })
})
