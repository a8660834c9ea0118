import { describe, expect, it } from 'vitest'
import { countTokens } from '../tokens'
import { h, Fragment } from './jsx-runtime'
import { Block, List, ListItem, Memo, Quote, Rendered, Section, Span, Title } from './components'
import { MarkdownRenderError, renderLocated, renderToMarkdown, renderWithSections } from './render'
import type { MarkdownNode } from './jsx-runtime'
import { containsControlMarker } from '../../agent/defang'
import { seededRandom } from '../../seeded-random'

// The section map (ranges, owners, token counts) and error paths.

function slices(node: Parameters<typeof renderWithSections>[0]): Record<string, string> {
  const { text, sections } = renderWithSections(node)
  return Object.fromEntries(sections.map((section) => [section.id, text.slice(section.start, section.end)]))
}

describe('section map', () => {
  it('locates a section by its character range in the output', () => {
    const result = renderWithSections(
      <Block>
        {'intro'}
        <Section id="persona" title="Persona" sources={[]}>
          <Title>Persona</Title>
        </Section>
      </Block>
    )
    expect(result.text).toBe('intro\n\n## Persona')
    expect(result.sections).toEqual([
      { id: 'persona', title: 'Persona', component: 'Section', sources: [], start: 7, end: 17, tokens: countTokens('## Persona') }
    ])
  })

  it('names the nearest enclosing component as the producer', () => {
    const Persona = () => <Section id="persona" title="Persona" sources={[]}>text</Section>
    expect(renderWithSections(<Block><Persona /></Block>).sections[0].component).toBe('Persona')
  })

  it('keeps an explicit component name', () => {
    const { sections } = renderWithSections(<Section id="a" title="A" component="Custom" sources={['RULES.md']}>x</Section>)
    expect(sections[0]).toMatchObject({ component: 'Custom', sources: ['RULES.md'] })
  })

  it('leaves no entry for a section that renders nothing', () => {
    expect(renderWithSections(<Block>{'a'}<Section id="empty" title="Empty" sources={[]}>{null}</Section></Block>).sections).toEqual([])
  })

  it('lists nested sections after their parent, both located exactly', () => {
    const node = (
      <Section id="memory" title="Memory" sources={[]}>
        <Block>
          <Title>Memory</Title>
          <List>
            <ListItem>
              <Section id="memory.1" title="m1" sources={['memory#1']}>Use EUR.</Section>
            </ListItem>
          </List>
        </Block>
      </Section>
    )
    expect(slices(node)).toEqual({ memory: '## Memory\n\n- Use EUR.', 'memory.1': 'Use EUR.' })
  })

  it('shifts sections past separators of earlier siblings', () => {
    const node = (
      <Block separator={'\n\n---\n\n'}>
        <Section id="a" title="A" sources={[]}>first</Section>
        <Section id="b" title="B" sources={[]}>second</Section>
      </Block>
    )
    expect(renderLocated(node).sections.map((section) => [section.start, section.end])).toEqual([
      [0, 5],
      [12, 18]
    ])
  })

  it('moves sections inside indented lines with their text', () => {
    const node = (
      <Block separator={'\n'} indent={'\t'}>
        {'line one'}
        <Section id="s" title="S" sources={[]}>{'two\nthree'}</Section>
      </Block>
    )
    const { text, sections } = renderLocated(node)
    expect(text).toBe('\tline one\n\ttwo\n\tthree')
    expect(text.slice(sections[0].start, sections[0].end)).toBe('two\n\tthree')
  })

  it('moves sections inside a quote with their text', () => {
    expect(slices(<Quote>{'a'}<Section id="s" title="S" sources={[]}>b</Section></Quote>)).toEqual({ s: 'b' })
  })

  it('moves sections past a block prefix', () => {
    expect(slices(<Block prefix="Note: "><Section id="s" title="S" sources={[]}>b</Section></Block>)).toEqual({ s: 'b' })
  })

  it('counts tokens of exactly the section text', () => {
    const { sections } = renderWithSections(<Span>{'prefix '}<Section id="s" title="S" sources={[]}>Revenue by month</Section></Span>)
    expect(sections[0].tokens).toBe(countTokens('Revenue by month'))
  })

  it('inserts pre-rendered text as-is, keeping its sections', () => {
    const inner = renderLocated(<Section id="base" title="Base" sources={[]}>{'**kept** <as> is'}</Section>)
    const outer = renderWithSections(<Block>{'head'}<Rendered result={inner} /></Block>)
    expect(outer.text).toBe('head\n\n**kept** <as> is')
    expect(outer.text.slice(outer.sections[0].start, outer.sections[0].end)).toBe('**kept** <as> is')
  })

  it('renders the same tree to byte-identical output twice', () => {
    const tree = () => (
      <Block>
        <Title>T</Title>
        <Section id="x" title="X" sources={['a.md']}>
          <List>
            <ListItem>1</ListItem>
          </List>
        </Section>
      </Block>
    )
    expect(renderWithSections(tree())).toEqual(renderWithSections(tree()))
  })
})

describe('Memo', () => {
  it('renders its child once per object', () => {
    let calls = 0
    const Expensive = ({ items }: { items: string[] }) => {
      calls++
      return items.join(', ')
    }
    const items = ['a', 'b']
    renderToMarkdown(<Memo on={items}><Expensive items={items} /></Memo>)
    expect(renderToMarkdown(<Memo on={items}><Expensive items={items} /></Memo>)).toBe('a, b')
    expect(calls).toBe(1)
  })

  it('renders again for another object', () => {
    const Joined = ({ items }: { items: string[] }) => items.join(', ')
    const first = ['a']
    const second = ['b']
    renderToMarkdown(<Memo on={first}><Joined items={first} /></Memo>)
    expect(renderToMarkdown(<Memo on={second}><Joined items={second} /></Memo>)).toBe('b')
  })

  it('locates reused sections wherever the memo lands', () => {
    const owner = {}
    const Part = () => <Section id="part" title="Part" sources={[]}>part</Section>
    const memo = () => <Memo on={owner}><Part /></Memo>
    renderLocated(memo())
    const { text, sections } = renderLocated(<Block>{'intro'}{memo()}</Block>)
    expect(text.slice(sections[0].start, sections[0].end)).toBe('part')
    expect(renderLocated(memo()).sections[0]).toMatchObject({ start: 0, end: 4, component: 'Part' })
  })
})

describe('markerFree', () => {
  it('is true only when the text holds no control marker, however the parts of one are split and joined', () => {
    const pieces = ['<|im_', 'start|>', '<|', 'eot_id|>', '<', 's>', '/s>', '[', '/INST]', 'INST]', '<<', 'SYS>>', '<｜', 'begin▁of｜>', '<think>', 'think>']
    const plain = ['a', 'word', ' ', '\n', '`', '**', ': ', '- ', '|', '>', ']', 'x'.repeat(80), 'y'.repeat(1100)]
    const separators = ['', '\n', '\n\n', ' ', '|', '-', '<', ': ']
    const prefixes = ['', '- ', '<', '|', '## ']
    const indents = ['', '\t', '  ', '> ', '<']
    // A fixed pseudo-random sequence, so a failure can be replayed.
    const random = seededRandom(11)
    const next = (count: number) => Math.floor(random() * count)
    const pick = <T,>(items: readonly T[]): T => items[next(items.length)]
    const memoOwners = [{}, {}, {}]
    const Leaf = ({ text }: { text: string }) => text
    const tree = (depth: number): MarkdownNode => {
      const kind = depth === 0 ? 0 : next(6)
      if (kind === 0) return next(2) === 0 ? pick(pieces) : pick(plain)
      const children = Array.from({ length: 1 + next(4) }, () => tree(depth - 1))
      if (kind === 1) return <Block separator={pick(separators)} prefix={pick(prefixes)} indent={pick(indents)}>{children}</Block>
      if (kind === 2) return <Span>{children}</Span>
      if (kind === 3) return <Section id="s" title="S" sources={[]}>{children}</Section>
      if (kind === 4) {
        // A memo renders its first child's text for good; the same owner may land among other neighbours later.
        const owner = pick(memoOwners)
        return <Memo on={owner}><Leaf text={renderToMarkdown(children)} /></Memo>
      }
      const inner = renderLocated(children)
      return <Rendered result={next(2) === 0 ? inner : { text: inner.text, sections: inner.sections }} />
    }
    let free = 0
    let withMarker = 0
    for (let round = 0; round < 4000; round++) {
      if (round % 500 === 0) memoOwners.forEach((_, index) => (memoOwners[index] = {}))
      const { text, markerFree } = renderLocated(<Span>{tree(1 + (round % 4))}{tree(1 + (round % 3))}</Span>)
      const holdsMarker = containsControlMarker(text)
      if (holdsMarker) withMarker++
      if (markerFree) free++
      if (markerFree) expect(holdsMarker, JSON.stringify(text)).toBe(false)
    }
    // Both kinds in numbers: the flag is not simply always false, and markers were formed across seams.
    expect(free).toBeGreaterThan(1000)
    expect(withMarker).toBeGreaterThan(500)
  })

  it('is false for a marker made across a seam, a separator or a prefix, and true for blank seams', () => {
    expect(renderLocated(<Span>{'<|im_'}{'start|>'}</Span>).markerFree).toBe(false)
    expect(renderLocated(<Block separator="|">{'<'}{'im_end|>'}</Block>).markerFree).toBe(false)
    expect(renderLocated(<Block separator=" <s> ">{'a'}{'b'}</Block>).markerFree).toBe(false)
    expect(renderLocated(<Block prefix="<">{'s>'}</Block>).markerFree).toBe(false)
    expect(renderLocated(<Block indent="<">{'a\ns>'}</Block>).markerFree).toBe(false)
    expect(renderLocated(<Span>{'<|im_'}{' start|>'}</Span>).markerFree).toBe(true)
    expect(renderLocated(<Block>{'<|im_'}{'start|>'}</Block>).markerFree).toBe(true)
    // A marker in one part is no seam's doing, but the text is not free of it either.
    expect(renderLocated(<Block>{'ok'}{'<s>'}</Block>).markerFree).toBe(false)
  })

  it('is true for a reused memo once its text was searched, when its own seams were too long to search around', () => {
    const owner = {}
    const long = 'Rule. '.repeat(400)
    const Part = () => <Span>{long}{'`'}{'x'}{'`'}</Span>
    const render = () => renderLocated(<Block separator={'\n\n---\n\n'}>{long}<Memo on={owner}><Part /></Memo>{long}</Block>)
    expect(render().markerFree).toBe(false)
    expect(render().markerFree).toBe(true)
  })
})

describe('errors', () => {
  it('carry the element path, leaving out layout primitives', () => {
    const SqlRules = () => <Block><Title level={0}>SQL</Title></Block>
    const SystemPrompt = () => <Block><SqlRules /></Block>
    expect(() => renderToMarkdown(<SystemPrompt />)).toThrow(
      'Title: level must be an integer from 1 to 6, got 0 (at SystemPrompt > SqlRules > Title)'
    )
  })

  it('are MarkdownRenderErrors with the full path', () => {
    const Broken = (): string => {
      throw new Error('no data')
    }
    try {
      renderToMarkdown(<Block><Broken /></Block>)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(MarkdownRenderError)
      if (error instanceof MarkdownRenderError) expect(error.elementPath).toEqual(['Block', 'Broken'])
    }
  })

  it('name a component whose items a List looked into', () => {
    const Rules = () => <ListItem><Title level={9}>x</Title></ListItem>
    const Prompt = () => <List><Rules /></List>
    expect(() => renderToMarkdown(<Prompt />)).toThrow('(at Prompt > Rules > Title)')
  })

  it('name a component inside a fragment', () => {
    const Inner = () => <Title level={8}>x</Title>
    expect(() => renderToMarkdown(<><Inner /></>)).toThrow('(at Inner > Title)')
  })
})
