import * as z from '../../shared/zod-mini'
import { once } from '../../shared/once'
import type { PromptPreview } from '../../shared/prompt'

// Prompt snapshots are stored as JSON and read back into the inspector; these schemas check the stored shape
// on the way out. The assignment at the bottom fails to compile if they drift from the shared types. Made on
// first use: only reading a stored snapshot needs them, and building them is half a millisecond of every start.

function previewParts() {
  const memoryItem = z.object({
    id: z.number(),
    category: z.enum(['global_rule', 'personal_fact']),
    content: z.string(),
    tokens: z.number(),
    chatId: z.nullable(z.string()),
    createdAt: z.string()
  })

  const contentPart = z.union([
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string() }) })
  ])

  const requestMessage = z.object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.union([z.string(), z.array(contentPart)]),
    cache: z.optional(z.boolean()),
    toolCalls: z.optional(z.array(z.object({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) }))),
    toolCallId: z.optional(z.string())
  })

  return {
    messages: z.array(requestMessage),
    sections: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        component: z.string(),
        sources: z.array(z.string()),
        start: z.number(),
        end: z.number(),
        tokens: z.number()
      })
    ),
    memory: z.object({
      included: z.array(memoryItem),
      dropped: z.array(z.extend(memoryItem, { reason: z.string() }))
    }),
    diagnostics: z.array(z.object({ file: z.string(), problem: z.string() })),
    overrideMode: z.enum(['default', 'replaced', 'wrapped', 'runtime']),
    budget: z.object({
      contextWindow: z.number(),
      reservedOutput: z.number(),
      used: z.number(),
      parts: z.array(z.object({ name: z.string(), tokens: z.number() })),
      trimmed: z.array(z.object({ part: z.string(), detail: z.string(), tokensSaved: z.number() })),
      safetyMargin: z.optional(z.number()),
      serverCounted: z.optional(z.number()),
      contextSource: z.optional(z.string()),
      archivedMessages: z.optional(z.number())
    })
  }
}

/** The schemas of a stored prompt preview's parts (the messages, sections, memory, diagnostics and budget). */
export const promptPreviewParts: () => PreviewParts = once(previewParts)

type PreviewParts = ReturnType<typeof previewParts>
type PartOf<K extends keyof PreviewParts> = z.infer<PreviewParts[K]>

// Compile-time check, both ways: the stored shape is a PromptPreview and a PromptPreview fits the stored shape.
type Stored = { system: string; user: string } & { [K in Exclude<keyof PreviewParts, 'budget'>]: PartOf<K> } & { budget: PartOf<'budget'> | null }
export const schemaMatchesSharedType: [(value: Stored) => PromptPreview, (value: PromptPreview) => Stored] = [
  (value) => value,
  (value) => value
]
