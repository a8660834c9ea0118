import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAO_LAYOUT } from '../../../../test/support/fixtures'
import { createAgentTools } from './index'
import { makeToolContext } from './tool-context.testing'

// Every request carries each tool's parameters (JSON schema from its zod schema), and a call with arguments
// that do not fit gets zod's message back. Both are pinned here byte for byte, so a change to a schema, or to
// how zod builds or prints it, shows as a diff in tool-parameters.snapshot.txt (`npx vitest run -u` accepts
// one that is meant).

function badArguments(properties: string[]): unknown[] {
  const everyProperty = (value: unknown) => Object.fromEntries(properties.map((property) => [property, value]))
  return [null, 'text', {}, everyProperty(42), everyProperty(''), everyProperty([-1.5]), everyProperty('x'.repeat(2_001))]
}

describe('what the model is told about each tool', () => {
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    ctx = await makeToolContext(NAO_LAYOUT)
  })
  afterAll(() => ctx.close())

  it('is the pinned parameters and argument errors', async () => {
    const sections: string[] = []
    for (const tool of createAgentTools()) {
      const lines = [`## ${tool.name}`, JSON.stringify(tool.parameters, null, 2)]
      for (const args of badArguments(Object.keys(tool.parameters.properties ?? {}))) {
        const { output } = await tool.invoke(args, ctx)
        lines.push(`${JSON.stringify(args).slice(0, 80)} → ${output.startsWith('Error: invalid arguments') ? output : '(accepted)'}`)
      }
      sections.push(lines.join('\n'))
    }
    await expect(sections.join('\n\n') + '\n').toMatchFileSnapshot('./tool-parameters.snapshot.txt')
  })
})
