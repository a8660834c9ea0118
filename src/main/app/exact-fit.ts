import type { ModelEndpoint } from '../agent/chat-model'
import type { ToolSpec } from '../agent/model-cache'
import type { ServerTokenCounter } from '../agent/server-token-count'
import type { AssembledPrompt, PromptModelInfo } from './prompt-assembly'
import type { TokenCalibration } from './token-calibration'
import { formatCount } from '../../shared/format-count'

// The budget fits the request with our BPE estimate, scaled by what each model taught us. Where the server
// can count (llama.cpp), the assembled request is then counted exactly before it is sent: the count corrects
// the model's scale (kept in the store), and when the request does not fit after all it is fitted again
// with the corrected scale — a few times at most — or refused before sending.

const MAX_REFITS = 3

export class ExactCountOverflowError extends Error {
  constructor(counted: number, contextWindow: number, reservedOutput: number) {
    super(
      `The model server counted ${fmt(counted)} tokens for this request, but its context window of ${fmt(contextWindow)} tokens ` +
        `leaves ${fmt(contextWindow - reservedOutput)} after reserving ${fmt(reservedOutput)} for the answer, even after trimming. Nothing was sent. ` +
        'Start a new chat, shorten the question, or load the model with a larger context window.'
    )
    this.name = 'ExactCountOverflowError'
  }
}

export interface ExactFitInput {
  /** Assembles the prompt for a model description (throws ContextWindowTooSmallError when nothing fits). */
  assemble: (model: PromptModelInfo) => AssembledPrompt
  model: PromptModelInfo
  endpoint: ModelEndpoint
  /** The tool definitions the first request carries (none in tool-less mode). */
  tools: readonly ToolSpec[]
  counter: ServerTokenCounter
  calibration: TokenCalibration
}

export interface ExactFit {
  assembled: AssembledPrompt
  /** Prompt tokens of the request as the server counts them; null when it cannot count. */
  counted: number | null
}

export async function fitExactly(input: ExactFitInput): Promise<ExactFit> {
  let model = input.model
  let assembled = input.assemble(model)
  for (let attempt = 0; ; attempt++) {
    const budget = assembled.preview.budget
    if (!budget || assembled.request.length === 0) return { assembled, counted: null }
    const counted = await input.counter.count(input.endpoint, assembled.request, input.tools)
    if (counted === null) return { assembled, counted: null }
    const scale = model.tokenScale ?? 1
    // The budget counted with the scale; the calibration learns against the plain estimate.
    const estimated = budget.used - budget.reservedOutput
    input.calibration.recordExact(input.endpoint, estimated / scale, counted)
    const fits = counted + budget.reservedOutput <= budget.contextWindow
    if (fits) return { assembled: withCount(assembled, counted), counted }
    if (attempt >= MAX_REFITS) throw new ExactCountOverflowError(counted, budget.contextWindow, budget.reservedOutput)
    // Scale so that this very request would have been estimated at what the server counted, and a little more
    // each time round, then fit again (trimming history, memory, … as the budget does).
    model = { ...model, tokenScale: Math.max(scale * 1.05, (scale * counted) / estimated) * (1 + 0.05 * attempt) }
    assembled = input.assemble(model)
  }
}

function withCount(assembled: AssembledPrompt, counted: number): AssembledPrompt {
  const budget = assembled.preview.budget
  return budget ? { ...assembled, preview: { ...assembled.preview, budget: { ...budget, serverCounted: counted } } } : assembled
}

function fmt(tokens: number): string {
  return formatCount(tokens)
}
