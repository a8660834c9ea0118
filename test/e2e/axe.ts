import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { z } from 'zod'

// axe-core injected into the page under test (through the DevTools protocol, which the page's CSP does not
// govern) and run on the whole document. Returns the serious and critical violations, described for a person.

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

const violationsSchema = z.array(
  z.object({
    id: z.string(),
    impact: z.string().nullable().optional(),
    help: z.string(),
    nodes: z.array(z.object({ target: z.array(z.unknown()), failureSummary: z.string().optional() }))
  })
)

export interface AxeProblem {
  id: string
  impact: string
  help: string
  targets: string[]
  summary: string
}

export async function seriousAxeViolations(page: Page): Promise<AxeProblem[]> {
  if (!(await page.evaluate(() => Reflect.has(globalThis, 'axe')))) await page.evaluate(axeSource)
  const raw: unknown = await page.evaluate(async () => {
    const result = await Reflect.get(globalThis, 'axe').run(Reflect.get(globalThis, 'document'), { resultTypes: ['violations'] })
    return JSON.parse(JSON.stringify(result.violations))
  })
  return violationsSchema
    .parse(raw)
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.slice(0, 6).map((node) => node.target.map(String).join(' ')),
      summary: violation.nodes[0]?.failureSummary ?? ''
    }))
}
