import { z } from 'zod'

// The model's answer is untrusted text. Small local models wrap JSON in fences, add a sentence before it,
// or think aloud in <think> tags; all of that is tolerated. A JSON object of the wrong shape is not.

const idSchema = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\s*\d+\s*$/)
    .transform(Number),
  z.null()
])

const itemSchema = z.object({
  content: z.string(),
  supersedes_id: idSchema.optional().transform((id) => id ?? null)
})

const itemsSchema = z
  .array(itemSchema)
  .nullable()
  .optional()
  .transform((items) => items ?? [])

export const extractionOutputSchema = z.object({
  user_instructions: itemsSchema,
  user_profile: itemsSchema
})

export type ExtractionOutput = z.output<typeof extractionOutputSchema>

/** The JSON schema sent as `response_format` where the server supports structured output. */
export const EXTRACTION_RESPONSE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['user_instructions', 'user_profile'],
  properties: Object.fromEntries(
    ['user_instructions', 'user_profile'].map((key) => [
      key,
      {
        anyOf: [
          {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['content', 'supersedes_id'],
              properties: { content: { type: 'string' }, supersedes_id: { anyOf: [{ type: 'integer' }, { type: 'null' }] } }
            }
          },
          { type: 'null' }
        ]
      }
    ])
  )
}

export type ParsedExtraction = { ok: true; output: ExtractionOutput } | { ok: false; error: string }

function candidates(raw: string): string[] {
  const text = raw.replace(/<think>[\s\S]*?<\/think>/g, '').trim()
  const found = [text]
  for (const match of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) found.push(match[1].trim())
  const first = text.indexOf('{')
  const last = text.lastIndexOf('}')
  if (first !== -1 && last > first) found.push(text.slice(first, last + 1))
  return found
}

export function parseExtractionOutput(raw: string): ParsedExtraction {
  let sawJson = false
  let shapeError = ''
  for (const candidate of candidates(raw)) {
    let value: unknown
    try {
      value = JSON.parse(candidate)
    } catch {
      continue
    }
    sawJson = true
    // An object with neither key is an answer to some other question, not "nothing to save".
    if (typeof value === 'object' && value !== null && !('user_instructions' in value) && !('user_profile' in value)) {
      shapeError = 'neither user_instructions nor user_profile is present'
      continue
    }
    const parsed = extractionOutputSchema.safeParse(value)
    if (parsed.success) return { ok: true, output: parsed.data }
    shapeError = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ')
  }
  return { ok: false, error: sawJson ? `JSON of the wrong shape: ${shapeError}` : 'no JSON object in the output' }
}
