import { kindOf, type ServerKind } from '../agent/endpoints'
import type { CheckLine } from '../../shared/api'
import type { Budget } from '../../shared/prompt'
import { fail, pass, warn, type DoctorCheck, type DoctorContext, type ServerProbe } from './types'
import { formatCount } from '../../shared/format-count'

// Each model server: it answers and serves the model; the model's real window holds the request this
// project needs; it takes tools; answers have room; and whether the server can count tokens exactly.

/** Below this many output tokens an answer with a SQL call and a sentence does not fit. */
const MIN_OUTPUT_TOKENS = 512
const TOOLS_UNSUPPORTED = /does not support tools|tools? (?:are|is) not supported|not support(?:ed)? (?:for )?tool|requires --jinja|tool[_ ]choice.*not supported/i

export const modelServers: DoctorCheck = async (context) => {
  const servers = await context.servers()
  const lines: CheckLine[] = []
  for (const server of servers) lines.push(...(await checkServer(context, server)))
  return lines
}

async function checkServer(context: DoctorContext, server: ServerProbe): Promise<CheckLine[]> {
  const { baseUrl } = server
  if (server.models === null) {
    const [detail, fix] = splitFix(server.error ?? `Could not reach the model server at ${baseUrl}.`)
    return [fail('model-server', 'Model server', detail, fix)]
  }
  const served = server.models.map((model) => model.id)
  const lines = [pass('model-server', 'Model server', `${baseUrl} answers; it serves ${served.length > 0 ? served.join(', ') : 'no model'}`)]
  if (served.length === 0) return [...lines, fail('model', 'Model', `${baseUrl} serves no model`, 'Load or pull one (e.g. `ollama pull qwen2.5:7b`), or start llama-server with -m model.gguf.')]
  const model = server.model ?? served[0]
  const info = server.models.find((candidate) => candidate.id === model)
  if (!info) return [...lines, fail('model', 'Model', `${baseUrl} does not serve “${model}”`, `Pick one it serves (${served.join(', ')}) with --model or in the model picker.`)]
  const endpoint = { baseUrl, model }
  const label = `${model} at ${baseUrl}`
  const preview = await context.preview(endpoint)
  if (preview.budget) lines.push(...budgetLines(label, kindOf(baseUrl), preview.budget, preview.diagnostics.find((item) => item.file === 'context window')?.problem ?? null))
  lines.push(await toolsLine(context, endpoint, label, info.tools))
  const counted = await context.countTokens(endpoint)
  lines.push(
    counted === null
      ? warn('exact-count', 'Exact token counts', `${baseUrl} has no counting endpoint: Glassbox estimates each request and corrects its estimate from the usage the server reports`, 'For exact counts use llama.cpp (llama-server offers /apply-template and /tokenize).')
      : pass('exact-count', 'Exact token counts', `${baseUrl} counts requests exactly (/apply-template + /tokenize: ${counted} tokens for a one-word question)`)
  )
  return lines
}

function budgetLines(label: string, kind: ServerKind, budget: Budget, tooSmall: string | null): CheckLine[] {
  const part = (name: string): number => budget.parts.find((item) => item.name === name)?.tokens ?? 0
  // What every request of this project needs before a question is typed; the total is the sum of exactly the
  // parts the line names. The user prompt is its template around an empty question (a few tokens).
  const needed: Array<[label: string, tokens: number]> = [
    ['system prompt', part('system')],
    ['tools', part('tools')],
    ['user-prompt template', part('user')],
    ['answer reserve', budget.reservedOutput],
    ['margin', budget.safetyMargin ?? 0]
  ]
  const need = needed.reduce((total, [, tokens]) => total + tokens, 0)
  const window = budget.contextWindow
  const source = budget.contextSource ? ` (${budget.contextSource})` : ''
  const sum = needed.map(([label, tokens]) => `${label} ${format(tokens)}`).join(' + ')
  const lines: CheckLine[] = []
  if (tooSmall !== null || need > window) {
    lines.push(fail('context-window', 'Context window', `${label}: the window is ${format(window)} tokens${source}, smaller than the ${format(need)} this project's request needs (${sum})`, windowFix(kind, need)))
  } else if (/did not say/.test(budget.contextSource ?? '')) {
    lines.push(warn('context-window', 'Context window', `${label}: the server does not say its window; Glassbox assumes ${format(window)} tokens, and this project's request needs ${format(need)} (${sum})`, 'Set the real size in Settings → Context window, so a request is never cut by the server.'))
  } else {
    lines.push(pass('context-window', 'Context window', `${label}: ${format(window)} tokens${source}; this project's request needs ${format(need)} (${sum}), leaving ${format(window - need)} for the question, history and results`))
  }
  lines.push(
    budget.reservedOutput < MIN_OUTPUT_TOKENS
      ? fail('output-cap', 'Output cap', `${label}: an answer gets only ${format(budget.reservedOutput)} tokens (max_tokens) in a ${format(window)}-token window`, windowFix(kind, need))
      : pass('output-cap', 'Output cap', `${label}: each round may answer up to ${format(budget.reservedOutput)} tokens (max_tokens), reserved out of the window`)
  )
  return lines
}

async function toolsLine(context: DoctorContext, endpoint: { baseUrl: string; model: string }, label: string, says: boolean | null): Promise<CheckLine> {
  const title = 'Tool calling'
  const fix = kindOf(endpoint.baseUrl) === 'llama.cpp' ? 'Start llama-server with --jinja (and a model whose template has tools).' : 'Use a model that supports tools (Qwen 2.5, Llama 3.1+, Mistral).'
  if (says === false) return fail('tools', title, `${label}: the server says this model does not support tools; Glassbox would answer without SQL`, fix)
  if (says === true) return pass('tools', title, `${label}: the server says the model supports tools`)
  const refusal = await context.tryToolCall(endpoint)
  if (refusal === null) return pass('tools', title, `${label}: accepted a request offering a tool`)
  if (TOOLS_UNSUPPORTED.test(refusal)) return fail('tools', title, `${label}: refused a request offering a tool (${refusal})`, fix)
  return warn('tools', title, `${label}: a request offering a tool failed (${refusal})`, 'Try a question in the app; the run says what the server answered.')
}

function windowFix(kind: ServerKind, need: number): string {
  const size = Math.max(16_384, 2 ** Math.ceil(Math.log2(need * 1.5)))
  switch (kind) {
    case 'ollama':
      return `Start Ollama with \`OLLAMA_CONTEXT_LENGTH=${size} ollama serve\` (or set num_ctx ${size} in a Modelfile).`
    case 'llama.cpp':
      return `Restart llama-server with \`-c ${size}\`.`
    case 'lmstudio':
      return `Load the model in LM Studio with a context length of ${size}.`
    case 'vllm':
      return `Start vLLM with \`--max-model-len ${size}\`.`
    default:
      return `Restart the server with a context window of at least ${size} tokens (llama-server \`-c ${size}\`, \`OLLAMA_CONTEXT_LENGTH=${size} ollama serve\`).`
  }
}

/** "Could not reach …: nothing is listening there (connection refused). Start it with …" → [what, fix]. */
function splitFix(message: string): [string, string] {
  const at = message.search(/(?<=[.)]) (?=Start |Open |Load |Or pass |No local)|\n/)
  if (at < 0) return [message, 'Start the model server, or pass --endpoint URL for one that runs.']
  return [message.slice(0, at).trim(), message.slice(at).trim().replace(/[ \t]*\n[ \t]*/g, '\n').replace(/ {2,}/g, ' ')]
}

function format(tokens: number): string {
  return formatCount(tokens)
}
