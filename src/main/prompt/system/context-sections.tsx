import type { MemoryItem } from '../../../shared/prompt'
import type { Connection, ProjectFile, Skill } from '../../project/types'
import { h } from '../markdown/jsx-runtime'
import { Block, Code, List, ListItem, Memo, Rendered, Section, Span, Title } from '../markdown/components'
import type { RenderedSection } from '../markdown/jsx-runtime'
import { LazyCount } from '../markdown/lazy-count'
import { countTokensPiecewise } from '../token-pieces'
import { containsControlMarker } from '../../agent/defang'
import { connectionFolder } from '../../engines/dialect-rules'
import { EXECUTABLE_FOLDER_TYPES } from '../../engines/registry'
import { shortTitle, slugOf, splitRuleBlocks, type RulePiece } from './rule-blocks'

// The trailing context: what this user and project bring. Each section renders nothing when it has no input.

/** `## User Rules`: RULES.md verbatim; each block under a heading of its own is a sub-section. */
export function UserRules({ rules }: { rules: ProjectFile | null }) {
  const text = rules?.text.trim() ?? ''
  if (!rules || text.length === 0) return null
  return (
    <Section id="user-rules" title="User Rules" sources={[rules.source]}>
      <Block>
        <Title>User Rules</Title>
        <Span>
          {lastingPieces(rules.source, splitRuleBlocks(text)).map((piece) => (
            <Memo on={piece}>
              <RuleBlock piece={piece} source={rules.source} />
            </Memo>
          ))}
        </Span>
      </Block>
    </Section>
  )
}

// Rule blocks keep their object while their text stays the same, so after an edit to RULES.md only the
// edited block is rendered and counted again (the others come from Memo). One generation is kept: the
// blocks of the last rules text rendered for each source file, found by a short fingerprint (hashing every
// block's whole text on each render would cost more than the rest) and then compared in full.
const lastPieces = new Map<string, Map<string, RulePiece[]>>()

function lastingPieces(source: string, pieces: RulePiece[]): RulePiece[] {
  const previous = lastPieces.get(source) ?? new Map<string, RulePiece[]>()
  const current = new Map<string, RulePiece[]>()
  const lasting = pieces.map((piece) => {
    const key = fingerprint(piece.text)
    // A block's heading is its first line, so the text alone tells blocks apart.
    const kept = [...(previous.get(key) ?? []), ...(current.get(key) ?? [])].find((known) => known.text === piece.text) ?? piece
    const same = current.get(key)
    if (!same) current.set(key, [kept])
    else if (!same.includes(kept)) same.push(kept)
    return kept
  })
  lastPieces.set(source, current)
  return lasting
}

function fingerprint(text: string): string {
  return text.length <= 96 ? text : `${text.length}\u0000${text.slice(0, 48)}\u0000${text.slice(-48)}`
}

function RuleBlock({ piece, source }: { piece: RulePiece; source: string }) {
  if (piece.heading === null) return piece.text
  const rule = piece.text.trimEnd()
  // The blank lines after a block stay outside its range, so the file's text is kept byte for byte.
  return [
    <Section id={`user-rules.${slugOf(piece.heading)}`} title={piece.heading} sources={[source]}>
      {rule}
    </Section>,
    piece.text.slice(rule.length)
  ]
}

/** `## Current User Connections`: one item per connection, saying which ones cannot run SQL offline. */
export function Connections({ connections }: { connections: readonly Connection[] }) {
  if (connections.length === 0) return null
  return (
    <Section id="connections" title="Current User Connections" sources={connections.map(connectionFolder)}>
      <Block>
        <Title>Current User Connections</Title>
        <List>
          {connections.map((connection) => (
            <ListItem>
              {connection.type}: {connection.database}
              {!EXECUTABLE_FOLDER_TYPES.has(connection.type.toLowerCase()) &&
                ' (metadata only: SQL cannot run on it offline; answer from its files or say so)'}
            </ListItem>
          ))}
        </List>
      </Block>
    </Section>
  )
}

/** `## Skills`: name, description and location of each skill, never its body (the agent reads it on demand). */
export function Skills({ skills }: { skills: readonly Skill[] }) {
  if (skills.length === 0) return null
  const items = skillItems(skills)
  return (
    <Section id="skills" title="Skills" sources={items.sources}>
      <Block>
        <Title>Skills</Title>
        <Span>
          Skills are playbooks the user wrote for recurring questions. When one fits the request, read its file
          with <Code>read</Code> before you start.
        </Span>
        <Rendered result={items} />
      </Block>
    </Section>
  )
}

/** What one skill's item renders to: its text and its section (placed when the list is laid out). */
interface SkillItem {
  text: string
  section: Omit<RenderedSection, 'start' | 'end'>
  /** Its text holds no chat-template control marker (the skill's name and description are the project's). */
  markerFree: boolean
}

/** A list's items laid out, one blank line apart (the Block separator), with their sections and sources. */
interface SkillItems {
  text: string
  sections: RenderedSection[]
  sources: string[]
  /** No item holds a control marker; none spans two, as blank lines part them. */
  markerFree: boolean
}

// A skill's object is kept while its file is unchanged, and the list while no skill changed: a new skill renders
// and counts one item and lays out the others from their kept text, with no element tree for 300 items.
const itemsBySkill = new WeakMap<Skill, SkillItem>()
const itemsByList = new WeakMap<readonly Skill[], SkillItems>()
const ITEM_SEPARATOR = '\n\n'

function skillItems(skills: readonly Skill[]): SkillItems {
  const known = itemsByList.get(skills)
  if (known) return known
  let text = ''
  const sections: RenderedSection[] = []
  let markerFree = true
  for (const skill of skills) {
    const item = skillItem(skill)
    markerFree &&= item.markerFree
    if (text.length > 0) text += ITEM_SEPARATOR
    const { id, title, component, sources, tokens } = item.section
    // Fields in the order the renderer writes a section's, so every section object has one shape.
    sections.push({ id, title, component, sources, start: text.length, end: text.length + item.text.length, tokens })
    text += item.text
  }
  const items = { text, sections, sources: skills.map((skill) => skill.location), markerFree }
  itemsByList.set(skills, items)
  return items
}

/** A skill's item: `### Skill: name`, its description and its location, as a section of its own. */
function skillItem(skill: Skill): SkillItem {
  const known = itemsBySkill.get(skill)
  if (known) return known
  const text = `### Skill: ${skill.name.trim()}\n**Description:** ${skill.description.trim() || 'none given.'}\n**Location:** \`${skill.location}\``
  const section = {
    id: `skills.${skill.name}`,
    title: `Skill: ${skill.name}`,
    sources: [skill.location],
    component: 'SkillItem',
    tokens: new LazyCount(() => countTokensPiecewise(text))
  }
  const item = { text, section, markerFree: !containsControlMarker(text) }
  itemsBySkill.set(skill, item)
  return item
}

export interface MemoryProps {
  included: readonly MemoryItem[]
  /** Memories left out to fit the budget; the prompt says so, so the model knows memory is incomplete. */
  droppedCount: number
}

/** `## Memory`: what earlier conversations established, grouped by category. */
export function Memory({ included, droppedCount }: MemoryProps) {
  if (included.length === 0 && droppedCount === 0) return null
  const rules = included.filter((memory) => memory.category === 'global_rule')
  const facts = included.filter((memory) => memory.category === 'personal_fact')
  return (
    <Section id="memory" title="Memory" sources={included.map(memorySource)}>
      <Block>
        <Title>Memory</Title>
        <Span>
          These memories were established in earlier conversations with the user. When the user now says something
          different, the newer instruction wins.
        </Span>
        {rules.length > 0 && <MemoryList title="Global User Rules" memories={rules} />}
        {facts.length > 0 && <MemoryList title="User Profile" memories={facts} />}
        {droppedCount > 0 && <DroppedNote count={droppedCount} />}
      </Block>
    </Section>
  )
}

function MemoryList({ title, memories }: { title: string; memories: readonly MemoryItem[] }) {
  return (
    <Block>
      <Title level={3}>{title}</Title>
      <List>
        {memories.map((memory) => (
          <ListItem>
            <Section id={`memory.${memory.id}`} title={shortTitle(memory.content)} sources={[memorySource(memory)]}>
              {memory.content}
            </Section>
          </ListItem>
        ))}
      </List>
    </Block>
  )
}

function DroppedNote({ count }: { count: number }) {
  const memories = count === 1 ? '1 memory was' : `${count} memories were`
  return (
    <Span>
      {memories} left out to fit the prompt budget, so this memory is incomplete: when something the user set
      earlier seems missing, ask.
    </Span>
  )
}

function memorySource(memory: MemoryItem): string {
  return `memory#${memory.id}`
}
