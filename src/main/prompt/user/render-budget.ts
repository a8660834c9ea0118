import type Handlebars from 'handlebars'
import { formatCount } from '../../../shared/format-count'
import { monotonicMs } from '../../monotonic-clock'

// A project's template is untrusted: a few lines of nested inline partials or `{{#each @root}}` blocks can
// expand to gigabytes or run for minutes, on the main process. Every render has a budget of time and output,
// checked at each helper and partial call — the only places where Handlebars can repeat work — so a template
// that blows it stops within a few milliseconds of its deadline, whatever it does.
/** How long one render may take. A real template renders in well under a millisecond. */
export const RENDER_BUDGET_MS = 250
/** Output allowed beyond four copies of the variables (a template may repeat the question or the context). */
const OUTPUT_ALLOWANCE_CHARS = 1024 * 1024

export class RenderBudgetError extends Error {}

interface RenderBudget {
  ms: number
  deadline: number
  maxChars: number
}

let activeBudget: RenderBudget | null = null

function checkBudget(output: unknown): void {
  if (!activeBudget) return
  if (monotonicMs() > activeBudget.deadline) {
    throw new RenderBudgetError(`took over ${activeBudget.ms} ms to render (nested partials or loops?)`)
  }
  if (typeof output === 'string' && output.length > activeBudget.maxChars) {
    throw new RenderBudgetError(`rendered over ${formatCount(activeBudget.maxChars)} characters (nested partials or loops?)`)
  }
}

/** Makes every helper and inline partial of `handlebars` check the budget of the render in progress. */
export function budgetRenders(handlebars: typeof Handlebars): void {
  for (const [name, helper] of Object.entries(handlebars.helpers)) {
    handlebars.registerHelper(name, function (this: unknown, ...args: Parameters<Handlebars.HelperDelegate>) {
      checkBudget(undefined)
      const output: unknown = helper.apply(this, args)
      checkBudget(output)
      return output
    })
  }
  // Inline partials (`{{#*inline "name"}}`) are the project's own partials: each call of one is checked too.
  const inlineDecorator = handlebars.decorators.inline
  handlebars.registerDecorator('inline', function (this: unknown, fn: unknown, props: unknown, container: unknown, options: { fn: (...args: unknown[]) => unknown }) {
    const partial = options.fn
    const budgeted = function (this: unknown, ...args: unknown[]): unknown {
      checkBudget(undefined)
      const output = partial.apply(this, args)
      checkBudget(output)
      return output
    }
    return inlineDecorator.call(this, fn, props, container, { ...options, fn: budgeted })
  })
}

/** Renders `compiled` with a deadline and an output cap; throws a RenderBudgetError when it blows either. */
export function renderWithinBudget<Variables extends { query: string; contextJson: string }>(
  compiled: HandlebarsTemplateDelegate<Variables>,
  variables: Variables,
  budgetMs = RENDER_BUDGET_MS
): string {
  const inputChars = variables.query.length + variables.contextJson.length
  activeBudget = { ms: budgetMs, deadline: monotonicMs() + budgetMs, maxChars: OUTPUT_ALLOWANCE_CHARS + 4 * inputChars }
  try {
    const output = compiled(variables)
    checkBudget(output)
    return output
  } finally {
    activeBudget = null
  }
}
