import { describe, expect, it } from 'vitest'
import { h } from '../markdown/jsx-runtime'
import { renderWithSections } from '../markdown/render'
import { UserRules } from './context-sections'

// UserRules reuses the rendering of rule blocks whose text did not change (issue #17); the output must be what
// a fresh render gives, whatever was rendered before.

const block = (name: string, rule: string) => `## ${name}\n\n${rule}\n\n`
const rules = (revenue: string) => `Intro line.\n\n${block('Revenue', revenue)}${block('Orders', 'Count once per day.')}${block('Same', 'x')}${block('Same', 'x')}`

describe('UserRules after edits', () => {
  it('renders each version as a fresh render would, with per-block token counts of that version', () => {
    const versions = [rules('Report in EUR.'), rules('Report in USD, net of refunds.'), rules('Report in EUR.')]
    const rendered = versions.map((text) => renderWithSections(h(UserRules, { rules: { source: 'RULES.md', text } })))
    expect(rendered[0].text).toBe(`## User Rules\n\n${versions[0].trim()}`)
    expect(rendered[1].text).toBe(`## User Rules\n\n${versions[1].trim()}`)
    expect(rendered[2]).toEqual(rendered[0])
    const revenue = rendered[1].sections.find((section) => section.id === 'user-rules.revenue')
    expect(rendered[1].text.slice(revenue?.start, revenue?.end)).toBe('## Revenue\n\nReport in USD, net of refunds.')
    expect(rendered[1].sections.filter((section) => section.title === 'Same')).toHaveLength(2)
  })
})
