import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from './create-tool'
import { createAgentTools } from './index'
import type { ToolContext } from './create-tool'

// What the model is sent as a tool's parameters must be a schema that grammar-constrained servers accept:
// llama.cpp refuses a request whose schema holds a length bound of 2,000 or more ("failed to parse grammar").

function largestBound(node: unknown): number {
  if (Array.isArray(node)) return Math.max(0, ...node.map(largestBound))
  if (node === null || typeof node !== 'object') return 0
  let largest = 0
  for (const [key, value] of Object.entries(node)) {
    if (['maxLength', 'maxItems', 'maxProperties'].includes(key) && typeof value === 'number') largest = Math.max(largest, value)
    else largest = Math.max(largest, largestBound(value))
  }
  return largest
}

describe('a tool', () => {
  it('builds its input schema only when its parameters are read or a call is checked, and once', async () => {
    const made = vi.fn(() => z.object({ table: z.string() }))
    const tool = createTool({ name: 'probe', description: 'probe', inputSchema: made, execute: async (input) => input.table, toModelOutput: (table) => table })
    expect(made).not.toHaveBeenCalled()
    expect(tool.parameters).toMatchObject({ type: 'object', required: ['table'] })
    expect(await tool.invoke({ table: 'orders' }, { limits: { maxOutputChars: 1000 } } as unknown as ToolContext)).toMatchObject({ ok: true, output: 'orders' })
    expect(made).toHaveBeenCalledTimes(1)
  })
})

describe('tool schemas as sent to the model', () => {
  it('hold no length or count bound a grammar-constrained server would refuse', () => {
    for (const tool of createAgentTools()) expect(largestBound(tool.parameters), tool.name).toBeLessThanOrEqual(500)
  })

  it('keep small bounds, and still enforce the large ones they leave out', async () => {
    const tool = createTool({
      name: 'probe',
      description: 'probe',
      inputSchema: () => z.object({ pattern: z.string().min(1).max(2000), picks: z.array(z.string().max(40)).max(3) }),
      execute: async (input) => input.pattern.length,
      toModelOutput: (length) => String(length)
    })
    const schema = JSON.stringify(tool.parameters)
    expect(schema).not.toContain('2000')
    expect(schema).toContain('"maxLength":40')
    expect(schema).toContain('"maxItems":3')
    const ctx = { limits: { maxOutputChars: 1000 } } as unknown as ToolContext
    expect((await tool.invoke({ pattern: 'x'.repeat(2001), picks: [] }, ctx)).ok).toBe(false)
    expect(await tool.invoke({ pattern: 'x'.repeat(2000), picks: [] }, ctx)).toMatchObject({ ok: true, output: '2000' })
  })
})
