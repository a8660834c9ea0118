import matter from 'gray-matter'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { parseSkill } from './skills'

// Simple frontmatter is read without the YAML parser; whatever the shortcut takes, it must read as YAML does.

const FRONTMATTER = [
  'name: revenue\ndescription: How to answer questions about revenue',
  'name: revenue\ndescription:   Spaced out, with commas, and a dash - here   ',
  'name: True\ndescription: yes',
  'name: null\ndescription: ~',
  'name: 12\ndescription: 1e3',
  'name: revenue # a comment\ndescription: x',
  'name: "quoted"\ndescription: \'single\'',
  'name: a: b\ndescription: x',
  'name: revenue\nname: twice',
  'name: revenue\ndescription: >\n  folded\n  text',
  'tags: [a, b]\nname: listed',
  'name: url http\ndescription: see docs/x.md'
]

describe('parseSkill frontmatter', () => {
  for (const frontmatter of FRONTMATTER) {
    it(`reads ${JSON.stringify(frontmatter)} as YAML does`, () => {
      let expected: { name: string; description: string }
      try {
        const data = parse(frontmatter) as Record<string, unknown>
        const text = (key: string, fallback: string) => {
          const value = data[key]
          return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value).trim() || fallback : fallback
        }
        expected = { name: text('name', 'revenue-skill'), description: text('description', '') }
      } catch {
        expected = { name: 'revenue-skill', description: '' }
      }
      const { skill } = parseSkill('agent/skills/revenue-skill.md', `---\n${frontmatter}\n---\nBody.\n`)
      expect({ name: skill.name, description: skill.description }).toEqual(expected)
      expect(skill.body).toBe('Body.\n')
    })
  }
})

// The usual shape is read without gray-matter; wherever the block ends and whatever follows, as gray-matter does.
const WHOLE_FILES = [
  '---\nname: revenue\ndescription: How to\n---\nBody.\n',
  '---\r\nname: revenue\r\ndescription: How to\r\n---\r\nBody.\r\n',
  '---\nname: revenue\n---',
  '---\nname: revenue\n---\n\nBody after a blank line.',
  '---\nname: revenue\n----\nBody.',
  '---\nname: revenue\n---extra\nBody.',
  '---\n---\nEmpty frontmatter.',
  '---\n\n---\nBlank frontmatter.',
  '---\nname: revenue\n',
  '---yaml\nname: revenue\n---\nBody.',
  '----\nname: revenue\n---\nBody.',
  '\uFEFF---\nname: revenue\n---\nBody.',
  '\uFEFFNo frontmatter after a byte-order mark.',
  'No frontmatter at all.',
  'No frontmatter,\r\nwith --- further down\n---\nand a rule.\n',
  '-- almost a delimiter\nname: revenue',
  ' ---\nname: revenue\n---\nIndented delimiter.',
  ''
]

describe('parseSkill frontmatter blocks', () => {
  for (const text of WHOLE_FILES) {
    it(`splits ${JSON.stringify(text)} as gray-matter does`, () => {
      const file = matter(text, { engines: { yaml: { parse: (block: string) => (parse(block) as object | null) ?? {} } } })
      const data = file.data as Record<string, unknown>
      const { skill } = parseSkill('agent/skills/revenue-skill.md', text)
      expect(skill.body).toBe(file.content)
      expect(skill.name).toBe(typeof data.name === 'string' ? data.name : 'revenue-skill')
    })
  }
})

// A project folder is untrusted: a `__proto__` key in frontmatter must stay a plain key, neither reaching
// Object.prototype nor becoming the prototype the skill's name and description are read through.
const PROTO_FRONTMATTER = [
  '__proto__: polluted\ndescription: plain',
  '__proto__:\n  polluted: yes\n  name: evil\n  description: evil',
  '"__proto__":\n  polluted: yes\n  name: evil',
  'constructor:\n  prototype:\n    polluted: yes\n    name: evil'
]
const PROTO_JSON = '{"__proto__": {"polluted": "yes", "name": "evil", "description": "evil"}}'

describe('parseSkill and __proto__ keys', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted
  })

  for (const frontmatter of PROTO_FRONTMATTER) {
    it(`keeps ${JSON.stringify(frontmatter)} out of every prototype`, () => {
      const { skill } = parseSkill('agent/skills/revenue-skill.md', `---\n${frontmatter}\n---\nBody.\n`)
      expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false)
      expect(skill.name).toBe('revenue-skill')
      expect(skill.description).not.toBe('evil')
      expect(skill.body).toBe('Body.\n')
    })
  }

  it('keeps a JSON __proto__ key out of every prototype', () => {
    const { skill } = parseSkill('agent/skills/revenue-skill.md', `---json\n${PROTO_JSON}\n---\nBody.\n`)
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false)
    expect({ name: skill.name, description: skill.description }).toEqual({ name: 'revenue-skill', description: '' })
  })
})
