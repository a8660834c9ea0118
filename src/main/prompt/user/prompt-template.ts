import { createRequire } from 'node:module'
import type Handlebars from 'handlebars'
import HandlebarsRuntime from 'handlebars/runtime.js'
import type { Diagnostic } from '../../../shared/prompt'
import type { ProjectFile } from '../../project/types'
import { builtInPartials, builtInTemplates, COMPILE_OPTIONS } from './templates'
import { precompiledPartials, precompiledTemplates } from './templates/precompiled'
import { errorMessage } from '../../../shared/error-message'
import { defangControlTokens } from '../../agent/defang'
import { budgetRenders, RENDER_BUDGET_MS, RenderBudgetError, renderWithinBudget } from './render-budget'

// Handlebars templates for the user prompt, on isolated Handlebars instances (never the global one, which
// other code may register helpers on) that hold the built-in partials. The built-ins are precompiled
// (templates/precompiled.ts), so a prompt needs only the Handlebars runtime; the compiler loads the first time
// a project brings its own template. Every template is compiled with `noEscape`: a prompt is not HTML, so
// `{{query}}` in a project's template must reach the model byte-identical, just like `{{{query}}}`.

type HandlebarsEnvironment = typeof Handlebars

/** Turns Handlebars.precompile's output (JavaScript of our own build, see precompiled.ts) back into a template spec. */
function specOf(precompiled: string): TemplateSpecification {
  return new Function(`return ${precompiled}`)() as TemplateSpecification
}

const runtime = (HandlebarsRuntime as HandlebarsEnvironment).create()
for (const [stem, spec] of Object.entries(precompiledPartials)) runtime.registerPartial(stem, runtime.template(specOf(spec)))
budgetRenders(runtime)

let compiler: HandlebarsEnvironment | null = null

/** The full Handlebars, with the built-in partials as text; synchronous, as prompts are assembled. */
function projectTemplateCompiler(): HandlebarsEnvironment {
  if (!compiler) {
    const handlebars = (createRequire(import.meta.url)('handlebars') as HandlebarsEnvironment).create()
    for (const [stem, text] of Object.entries(builtInPartials)) handlebars.registerPartial(stem, text)
    budgetRenders(handlebars)
    compiler = handlebars
  }
  return compiler
}

/** The variables a user-prompt template is rendered with. */
export interface UserPromptVariables {
  hasResultsMeta: boolean
  contextJson: string
  showVisionWarning: boolean
  query: string
}

export class TemplateError extends Error {
  constructor(
    readonly source: string,
    readonly problem: string
  ) {
    super(`${source}: ${problem}`)
    this.name = 'TemplateError'
  }
}

// A sentinel question used to check, at load time, that a template compiles, renders with every block on,
// and actually puts the question in the prompt (a template that drops it would send the model no question).
const PROBE_QUERY = 'glassbox-probe-question-7f3a'
const PROBE_VARIABLES: UserPromptVariables = {
  hasResultsMeta: true,
  contextJson: '{}',
  showVisionWarning: true,
  query: PROBE_QUERY
}

export class PromptTemplate {
  private constructor(
    /** Where the template came from: `built-in:user-prompt` or a project-relative path. */
    readonly source: string,
    /** The template text as written. */
    readonly text: string,
    private readonly compiled: HandlebarsTemplateDelegate<UserPromptVariables>
  ) {}

  /** Why this template blew its render budget once; it is not tried again until its text changes. */
  private budgetProblem: string | null = null

  private static readonly builtIns = new Map<string, PromptTemplate>()
  private static readonly overrides = new Map<string, PromptTemplate>()
  private static readonly MAX_CACHED_OVERRIDES = 32

  /** A built-in template by name (`user-prompt`, or `user-prompt.md` as its file was called), compiled once and cached. */
  static load(templateName: string): PromptTemplate {
    const name = templateName.replace(/\.md$/, '')
    const cached = PromptTemplate.builtIns.get(name)
    if (cached) return cached
    const text = builtInTemplates[name]
    if (text === undefined) {
      const known = Object.keys(builtInTemplates).join(', ')
      throw new TemplateError(`built-in:${name}`, `no built-in template named "${name}" (known: ${known})`)
    }
    const template = PromptTemplate.checked(runtime.template<UserPromptVariables>(specOf(precompiledTemplates[name])), text, `built-in:${name}`)
    PromptTemplate.builtIns.set(name, template)
    return template
  }

  /**
   * A project's template, compiled and checked; cached by text so an unchanged file is compiled once.
   * Throws a TemplateError naming the file and the problem when it cannot be used.
   */
  static fromProjectFile(file: ProjectFile): PromptTemplate {
    const key = file.source + '\0' + file.text
    const cached = PromptTemplate.overrides.get(key)
    if (cached) return cached
    // The project's template is data like its other files: control tokens in it are sent as plain text.
    const template = PromptTemplate.compile(defangControlTokens(file.text), file.source, file.text)
    if (PromptTemplate.overrides.size >= PromptTemplate.MAX_CACHED_OVERRIDES) {
      const oldest = PromptTemplate.overrides.keys().next()
      if (!oldest.done) PromptTemplate.overrides.delete(oldest.value)
    }
    PromptTemplate.overrides.set(key, template)
    return template
  }

  private static compile(text: string, source: string, asWritten: string): PromptTemplate {
    let compiled: HandlebarsTemplateDelegate<UserPromptVariables>
    try {
      compiled = projectTemplateCompiler().compile<UserPromptVariables>(text, COMPILE_OPTIONS)
    } catch (error) {
      throw new TemplateError(source, `does not compile: ${oneLine(error)}`)
    }
    return PromptTemplate.checked(compiled, asWritten, source)
  }

  /**
   * Renders once with every block on: Handlebars compiles lazily, so this surfaces syntax errors and unknown
   * partials, and shows that the template puts the question in the prompt. (It also compiles the template,
   * which takes longer than rendering it, on a busy machine a lot longer: hence the larger budget.)
   */
  private static checked(compiled: HandlebarsTemplateDelegate<UserPromptVariables>, text: string, source: string): PromptTemplate {
    let probe: string
    try {
      probe = renderWithinBudget(compiled, PROBE_VARIABLES, 4 * RENDER_BUDGET_MS)
    } catch (error) {
      if (error instanceof RenderBudgetError) throw new TemplateError(source, error.message)
      throw new TemplateError(source, `does not compile: ${oneLine(error)}`)
    }
    if (!probe.includes(PROBE_QUERY)) {
      throw new TemplateError(source, 'never outputs {{query}}, so the model would get no question')
    }
    return new PromptTemplate(source, text, compiled)
  }

  /** Why this template cannot be used any more (it blew its render budget), or null. */
  get unusable(): string | null {
    return this.budgetProblem
  }

  /** Renders within the time and output budget; throws a TemplateError naming the file when that fails. */
  render(variables: UserPromptVariables): string {
    if (this.budgetProblem) throw new TemplateError(this.source, this.budgetProblem)
    try {
      return renderWithinBudget(this.compiled, variables)
    } catch (error) {
      if (error instanceof RenderBudgetError) {
        this.budgetProblem = error.message
        throw new TemplateError(this.source, error.message)
      }
      // Runaway recursion ends in a RangeError, an unknown partial behind a condition in a Handlebars error.
      throw new TemplateError(this.source, `could not be rendered: ${oneLine(error)}`)
    }
  }
}

export interface ResolvedTemplate {
  template: PromptTemplate
  /** Empty, or one diagnostic saying why the project's template was not used. */
  diagnostics: Diagnostic[]
}

/**
 * The template for the user prompt: the project's `agent/prompts/user-prompt.md` when it is usable,
 * otherwise the built-in one plus a diagnostic {file, problem}.
 */
export function resolveUserPromptTemplate(override: ProjectFile | null): ResolvedTemplate {
  const builtIn = PromptTemplate.load('user-prompt')
  if (!override) return { template: builtIn, diagnostics: [] }
  try {
    const template = PromptTemplate.fromProjectFile(override)
    if (template.unusable) return { template: builtIn, diagnostics: [builtInUsedInstead(override.source, template.unusable)] }
    return { template, diagnostics: [] }
  } catch (error) {
    const problem = error instanceof TemplateError ? error.problem : oneLine(error)
    return { template: builtIn, diagnostics: [builtInUsedInstead(override.source, problem)] }
  }
}

export function builtInUsedInstead(file: string, problem: string): Diagnostic {
  return { file, problem: `${problem}; the built-in user prompt template is used instead` }
}

// Handlebars parse errors span four lines (position, source excerpt, caret, expectation); the excerpt and
// caret mean nothing on one line, so keep the first and last.
function oneLine(error: unknown): string {
  const message = errorMessage(error)
  const lines = message.split('\n').map((line) => line.trim()).filter((line) => line.length > 0)
  return lines.length > 2 ? `${lines[0]} ${lines[lines.length - 1]}` : lines.join(' ')
}
