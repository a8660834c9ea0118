import type { MemoryItem, RequestMessage } from '../src/shared/prompt'
import { fitRequest, type SkillListItem, type SystemPromptParts } from '../src/main/prompt/budget'
import { countTokens } from '../src/main/prompt/tokens'
import { piecesOf } from '../src/main/prompt/token-pieces'
import { buildContextBlock, buildUserPrompt, describeResult, type EarlierResult, type FileMeta } from '../src/main/prompt/user'
import { measure, withFloor, type Figure } from './harness'

// user-prompt/500-files-200-results — the user prompt for a message with 500 attached files and 200
//   referenced results (summaries extracted, context block built and rendered), warm.
// fit/200-messages-8k — fitting a 200-message chat, memory and skills into an 8k window.
// tokens/1mb-cached — counting a 1 MB text again, against the first count of a fresh 1 MB text.
// tokens/pieces-5mb-no-blank-line — cutting 5 MB of lines without a blank line into pieces for counting.

// "Warm" as in a running app: token counts cached and the code optimised by the JIT. That takes far more
// than the harness's default 3 warm-up rounds — on a busy machine the optimising compiler's background
// thread lags, and with 50 rounds the median was still ~10× the warm one (14 ms against 1.3 ms).
const WARM = { warmup: 300, n: 100 }

const QUESTION = 'Which regions grew fastest in Q3, and is that consistent with the earlier analysis?'

function files(n: number): FileMeta[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `export_${i}.csv`,
    fileId: `file_${i.toString(16).padStart(6, '0')}`,
    type: i % 10 === 0 ? 'image/png' : 'text/csv',
    summary:
      `Table (CSV), ${(i % 97) + 1}.4 KB, ${i * 3 + 12} lines (a header and ${i * 3 + 11} rows). ` +
      'Columns (4): month, region, net_revenue, orders.'
  }))
}

function results(n: number): EarlierResult[] {
  return Array.from({ length: n }, (_, i) => ({
    resultId: `res_${i}`,
    title: `Analysis ${i}`,
    status: 'success',
    content:
      `I queried the orders table for period ${i}.\n\n`.repeat(6) +
      `In summary, revenue in region ${i % 7} grew ${i % 13}% quarter over quarter, driven by repeat customers.`,
    createdAt: '2026-09-15T02:00:00.000Z',
    toolCalls: [{ callId: `call_${i}`, toolName: 'execute_sql', status: 'success' }]
  }))
}

function chat(messages: number): RequestMessage[] {
  return Array.from({ length: messages }, (_, i) =>
    i % 2 === 0
      ? { role: 'user', content: `Question ${i}: how did revenue in region ${i % 7} develop over the last ${i % 12} months?` }
      : { role: 'assistant', content: `Answer ${i}: ` + 'Revenue rose while order counts stayed flat, so baskets grew. '.repeat(5) }
  )
}

const INSTRUCTIONS = 'You are a careful data analyst working on a local project. '.repeat(120)

function renderSystem(parts: SystemPromptParts<SkillListItem>): string {
  return [
    INSTRUCTIONS,
    '## Memory',
    ...parts.memory.map((item) => `- ${item.content}`),
    '## Skills',
    ...parts.skills.map((skill) => `- ${skill.name}: ${skill.description}`)
  ].join('\n')
}

const memory: MemoryItem[] = Array.from({ length: 30 }, (_, i) => {
  const content = `Always report revenue for region ${i} in EUR, rounded to thousands.`
  return {
    id: i + 1,
    category: i % 3 === 0 ? 'global_rule' : 'personal_fact',
    content,
    tokens: countTokens(content),
    chatId: null,
    createdAt: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`
  }
})
const skills: SkillListItem[] = Array.from({ length: 12 }, (_, i) => ({
  name: `skill-${i}`,
  description: `Computes metric ${i} the way finance defines it.`
}))

function oneMegabyteText(seed: number): string {
  const line = `row ${seed}: the quick brown fox jumps over the lazy dog, revenue 1234.56 EUR\n`
  return line.repeat(Math.ceil(1_000_000 / line.length)).slice(0, 1_000_000)
}

export async function* figures(): AsyncGenerator<Figure> {
  const attached = files(500)
  const earlier = results(200)
  yield await measure(
    'user-prompt/500-files-200-results',
    () => buildUserPrompt(QUESTION, buildContextBlock({ files: attached, results: earlier.map((result) => describeResult(result)) })),
    WARM
  )

  const history = chat(200)
  const context = buildContextBlock({ files: attached.slice(0, 5) })
  yield await measure('fit/200-messages-8k', () =>
    fitRequest({
      contextWindow: 8192,
      reservedOutput: 1024,
      renderSystem,
      memory,
      skills,
      toolSchemasTokens: 1200,
      history,
      context,
      renderUser: (block) => buildUserPrompt(QUESTION, block),
      archive: { source: 'chat:bench', now: '2026-11-29T00:00:00.000Z' }
    }),
    WARM
  )

  let seed = 0
  const first = await measure('tokens/1mb-first', () => countTokens(oneMegabyteText(seed++)), { n: 5, warmup: 0 })
  const text = oneMegabyteText(-1)
  countTokens(text)
  yield withFloor(await measure('tokens/1mb-cached', () => countTokens(text)), first)

  const noBlankLine = 'SELECT region, sum(net_revenue) FROM orders GROUP BY region -- no blank line here\n'.repeat(62_000)
  yield await measure('tokens/pieces-5mb-no-blank-line', () => piecesOf(noBlankLine), { n: 20 })
}
