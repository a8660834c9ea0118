import { z } from 'zod'

// One typed stream of run events, shared by the desktop app (IPC), web mode (SSE) and `ask --json`.
export const runEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run-start'), runId: z.string(), chatId: z.string(), model: z.string() }),
  z.object({ type: z.literal('text-delta'), runId: z.string(), text: z.string() }),
  z.object({ type: z.literal('reasoning-delta'), runId: z.string(), text: z.string() }),
  z.object({
    type: z.literal('tool-start'),
    runId: z.string(),
    callId: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown())
  }),
  z.object({
    type: z.literal('tool-end'),
    runId: z.string(),
    callId: z.string(),
    name: z.string(),
    ok: z.boolean(),
    /** The text the model receives. */
    output: z.string(),
    /** Structured result for the UI (rows of a query, a chart spec, clarification options, …). */
    data: z.unknown().optional()
  }),
  z.object({
    type: z.literal('usage'),
    runId: z.string(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    /** This round's own counts (the totals above are summed over the run's rounds so far). */
    round: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
    /** The model the server says answered this round (its response's `model` field). */
    servedModel: z.string().optional()
  }),
  z.object({
    type: z.literal('end'),
    runId: z.string(),
    /** 'length': the answer was cut at the output limit (the server's finish_reason "length"). */
    stopReason: z.enum(['answer', 'length', 'stop-tool', 'round-limit', 'loop-guard', 'cancelled', 'error']),
    answer: z.string()
  }),
  z.object({ type: z.literal('error'), runId: z.string(), message: z.string() })
])

export type RunEvent = z.infer<typeof runEventSchema>
export type StopReason = Extract<RunEvent, { type: 'end' }>['stopReason']
