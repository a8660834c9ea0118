import Handlebars from 'handlebars'
import { describe, expect, it } from 'vitest'
import { PromptTemplate, TemplateError, resolveUserPromptTemplate } from './prompt-template'

const OVERRIDE = 'agent/prompts/user-prompt.md'

describe('PromptTemplate', () => {
  it('loads a built-in template once and caches it', () => {
    expect(PromptTemplate.load('user-prompt')).toBe(PromptTemplate.load('user-prompt'))
  })

  it('accepts the template file name with its .md extension', () => {
    expect(PromptTemplate.load('user-prompt.md')).toBe(PromptTemplate.load('user-prompt'))
  })

  it('names the built-in source', () => {
    expect(PromptTemplate.load('user-prompt').source).toBe('built-in:user-prompt')
  })

  it('refuses an unknown built-in name with the known ones', () => {
    expect(() => PromptTemplate.load('nope')).toThrow('built-in:nope: no built-in template named "nope" (known: user-prompt)')
  })

  it('lets a project template use the built-in partials by stem', () => {
    const template = PromptTemplate.fromProjectFile({ source: OVERRIDE, text: '{{> vision-note}}Q: {{query}}' })
    expect(template.render({ hasResultsMeta: false, contextJson: '{}', showVisionWarning: false, query: 'x' })).toMatch(
      /^Note: the context includes image files.*\nQ: x$/s
    )
  })

  it('does not register partials on the global Handlebars instance', () => {
    expect(Handlebars.partials['vision-note']).toBeUndefined()
  })

  it('compiles a project template once per text', () => {
    const file = { source: OVERRIDE, text: 'Ask: {{query}}' }
    expect(PromptTemplate.fromProjectFile(file)).toBe(PromptTemplate.fromProjectFile({ ...file }))
  })

  it('recompiles when the project template text changes', () => {
    const first = PromptTemplate.fromProjectFile({ source: OVERRIDE, text: 'One: {{query}}' })
    expect(PromptTemplate.fromProjectFile({ source: OVERRIDE, text: 'Two: {{query}}' })).not.toBe(first)
  })

  it('reports a syntax error with the file and the parser message on one line', () => {
    expect(() => PromptTemplate.fromProjectFile({ source: OVERRIDE, text: '{{#if hasResultsMeta}}\nQ: {{query}}' })).toThrow(
      new TemplateError(
        OVERRIDE,
        "does not compile: Parse error on line 2: Expecting 'OPEN_INVERSE_CHAIN', 'INVERSE', 'OPEN_ENDBLOCK', got 'EOF'"
      )
    )
  })

  it('reports an unknown partial as a compile problem', () => {
    expect(() => PromptTemplate.fromProjectFile({ source: OVERRIDE, text: '{{> missing}} {{query}}' })).toThrow(
      'agent/prompts/user-prompt.md: does not compile: The partial missing could not be found'
    )
  })

  it('refuses a template that never outputs the question', () => {
    expect(() => PromptTemplate.fromProjectFile({ source: OVERRIDE, text: 'Context: {{{contextJson}}}' })).toThrow(
      'agent/prompts/user-prompt.md: never outputs {{query}}, so the model would get no question'
    )
  })
})

describe('resolveUserPromptTemplate', () => {
  it('uses the built-in template when the project has no override', () => {
    expect(resolveUserPromptTemplate(null)).toEqual({ template: PromptTemplate.load('user-prompt'), diagnostics: [] })
  })

  it("uses the project's template when it compiles", () => {
    const resolved = resolveUserPromptTemplate({ source: OVERRIDE, text: 'Mine: {{query}}' })
    expect(resolved.template.source).toBe(OVERRIDE)
  })

  it('falls back to the built-in template with a diagnostic on a syntax error', () => {
    const resolved = resolveUserPromptTemplate({ source: OVERRIDE, text: 'Q: {{query' })
    expect(resolved).toEqual({
      template: PromptTemplate.load('user-prompt'),
      diagnostics: [
        {
          file: OVERRIDE,
          problem:
            "does not compile: Parse error on line 1: Expecting 'ID', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', got 'INVALID'; the built-in user prompt template is used instead"
        }
      ]
    })
  })
})
