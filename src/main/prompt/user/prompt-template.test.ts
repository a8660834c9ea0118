import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Handlebars from 'handlebars'
import { builtInPartials, builtInTemplates, COMPILE_OPTIONS } from './templates'
import { precompiledModule } from './templates/precompile'
import { describe, expect, it } from 'vitest'
import { PromptTemplate, TemplateError, resolveUserPromptTemplate } from './prompt-template'

const OVERRIDE = 'agent/prompts/user-prompt.md'

describe('the precompiled built-ins', () => {
  it('are current: precompiled.ts is what `npm run templates` writes for the templates as they are', () => {
    expect(readFileSync(join(import.meta.dirname, 'templates', 'precompiled.ts'), 'utf8')).toBe(precompiledModule())
  })

  it('render as the same templates compiled at run time do', () => {
    const variables = { hasResultsMeta: true, contextJson: '{"files":[]}', showVisionWarning: true, query: 'How many orders?' }
    const compiled = Handlebars.create()
    for (const [stem, text] of Object.entries(builtInPartials)) compiled.registerPartial(stem, text)
    const expected = compiled.compile(builtInTemplates['user-prompt'], COMPILE_OPTIONS)(variables)
    expect(PromptTemplate.load('user-prompt').render(variables)).toBe(expected)
    expect(expected).toContain('## Previous Results')
  })
})

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

/** Inline partials that double at each level, behind a condition the load-time probe (a short question) skips. */
function doublingPartials(levels: number, innermost = '{{query}}'): string {
  const partials = [`{{#*inline "p0"}}${innermost}{{/inline}}`]
  for (let level = 1; level <= levels; level++) partials.push(`{{#*inline "p${level}"}}{{> p${level - 1}}}{{> p${level - 1}}}{{/inline}}`)
  return `${partials.join('\n')}\n{{#if (lookup query 40)}}{{> p${levels}}}{{/if}}\nQ: {{query}}`
}

const LONG_QUESTION = 'Which regions grew fastest in the third quarter, and why did they?'
const variablesFor = (query: string) => ({ hasResultsMeta: false, contextJson: '{}', showVisionWarning: false, query })

describe('PromptTemplate render budget', () => {
  // Hang guards: without the budget these run for minutes (or run out of memory).
  it('stops nested inline partials that pass the load-time check, naming the file', { timeout: 20_000 }, () => {
    // Empty at the bottom, so only time grows: 2^40 partial calls.
    const template = PromptTemplate.fromProjectFile({ source: OVERRIDE, text: doublingPartials(40, '{{!-- nothing --}}') })
    expect(() => template.render(variablesFor(LONG_QUESTION))).toThrow(
      new TemplateError(OVERRIDE, 'took over 250 ms to render (nested partials or loops?)')
    )
  })

  it('stops a template whose output grows past the budget even while it is fast', () => {
    const template = PromptTemplate.fromProjectFile({ source: OVERRIDE, text: doublingPartials(18) })
    expect(() => template.render(variablesFor('x'.repeat(60)))).toThrow(
      new TemplateError(OVERRIDE, 'rendered over 1,048,824 characters (nested partials or loops?)')
    )
  })

  it('stops nested loops over the variables, which need no partial', { timeout: 20_000 }, () => {
    const text = '{{#each @root}}'.repeat(16) + 'x' + '{{/each}}'.repeat(16) + '{{query}}'
    const template = PromptTemplate.fromProjectFile({ source: OVERRIDE, text: `{{#if (lookup query 40)}}${text}{{/if}}{{query}}` })
    expect(() => template.render(variablesFor(LONG_QUESTION))).toThrow(/took over 250 ms to render/)
  })

  it('refuses a blown template at once afterwards, until its text changes', () => {
    const file = { source: OVERRIDE, text: doublingPartials(18) }
    expect(() => PromptTemplate.fromProjectFile(file).render(variablesFor('x'.repeat(60)))).toThrow(/rendered over/)
    expect(() => PromptTemplate.fromProjectFile(file).render(variablesFor('short'))).toThrow(/rendered over/)
    expect(resolveUserPromptTemplate(file)).toEqual({
      template: PromptTemplate.load('user-prompt'),
      diagnostics: [{ file: OVERRIDE, problem: expect.stringMatching(/^rendered over .*; the built-in user prompt template is used instead$/) }]
    })
  })

  it('reports runaway recursion as a render problem of the file', () => {
    const text = '{{#*inline "loop"}}{{> loop}}{{/inline}}{{#if (lookup query 40)}}{{> loop}}{{/if}}{{query}}'
    expect(() => PromptTemplate.fromProjectFile({ source: OVERRIDE, text }).render(variablesFor(LONG_QUESTION))).toThrow(
      /^agent\/prompts\/user-prompt\.md: (could not be rendered: Maximum call stack size exceeded|took over 250 ms)/
    )
  })

  it('renders an ordinary template with inline partials and loops as before', () => {
    const text = '{{#*inline "ask"}}Q: {{query}}{{/inline}}{{#each @root}}{{@key}} {{/each}}\n{{> ask}}'
    expect(PromptTemplate.fromProjectFile({ source: OVERRIDE, text }).render(variablesFor('why?'))).toBe(
      'hasResultsMeta contextJson showVisionWarning query \nQ: why?'
    )
  })
})
