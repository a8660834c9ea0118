import { describe, expect, it, vi } from 'vitest'
import type { MemoryItem, RequestMessage } from '../../../shared/prompt'
import { buildUserPrompt } from '../user/build-user-prompt'
import type { ContextBlock, FileMeta } from '../user/context-block'
import { ContextWindowTooSmallError } from './costs'
import { fitRequest, type FitRequestInput, type SkillListItem, type SystemPromptParts } from './fit-request'
import { SUMMARY_LEFT_OUT } from './summaries'

// A deterministic fake tokenizer: one token per whitespace-separated word. With the 4-token message
// overhead, a message of n words costs n + 4.
const count = (text: string): number => text.split(/\s+/).filter(Boolean).length
const words = (n: number, word = 'w'): string => Array.from({ length: n }, () => word).join(' ')

const INSTRUCTIONS = words(100, 'rule') // 100 words → the system prompt costs 104 with nothing else in it
const QUESTION = 'How many orders in March?' // 5 words

function renderSystem(parts: SystemPromptParts<SkillListItem>): string {
  return [
    INSTRUCTIONS,
    ...parts.memory.map((item) => `- ${item.content}`),
    ...parts.skills.map((skill) => `- ${skill.name}: ${skill.description}`)
  ].join('\n')
}

// The user prompt: one line per archive entry and summary, then the question.
function renderUser(context: ContextBlock): string {
  return [
    ...(context.archivedRefs ?? []).map((ref) => `archived ${ref.fileId}`),
    ...context.files.map((file) => file.summary),
    ...(context.resultsMeta ?? []).map((result) => result.summary),
    QUESTION
  ].join('\n')
}

/** A turn of 38 tokens: a 10-word question (14) and a 20-word answer (24). */
function turn(n: number): RequestMessage[] {
  return [
    { role: 'user', content: `Turn ${n} question: ${words(7)}` },
    { role: 'assistant', content: words(20, 'a') }
  ]
}

function memoryItem(id: number, category: MemoryItem['category'], createdAt: string, wordCount: number): MemoryItem {
  // "- " + content: the item costs wordCount + 1 in the fake count, as its `tokens` says.
  return { id, category, content: words(wordCount, `m${id}`), tokens: wordCount + 1, chatId: null, createdAt }
}

function input(overrides: Partial<FitRequestInput> = {}): FitRequestInput {
  return {
    contextWindow: 1000,
    reservedOutput: 100,
    renderSystem,
    memory: [],
    skills: [],
    toolSchemasTokens: 50,
    history: [],
    context: { files: [] },
    renderUser,
    archive: { source: 'chat:1', now: '2026-11-29T12:00:00.000Z' },
    countTokens: count,
    safetyMarginRatio: 0,
    ...overrides
  }
}

describe('fitRequest — when everything fits', () => {
  it('reports the budget by part and trims nothing', () => {
    const fitted = fitRequest(input({ history: turn(1) }))
    expect(fitted.budget).toEqual({
      contextWindow: 1000,
      reservedOutput: 100,
      used: 104 + 50 + 38 + 9 + 100,
      parts: [
        { name: 'system', tokens: 104 },
        { name: 'tools', tokens: 50 },
        { name: 'history', tokens: 38 },
        { name: 'user', tokens: 9 },
        { name: 'output', tokens: 100 }
      ],
      trimmed: [],
      safetyMargin: 0
    })
  })

  it('returns the rendered prompts and the whole history', () => {
    const fitted = fitRequest(input({ history: turn(1) }))
    expect([fitted.system, fitted.user, fitted.history, fitted.archivedHistory]).toEqual([INSTRUCTIONS, QUESTION, turn(1), []])
  })

  it('keeps 5% of the window free by default for tokenizer differences', () => {
    const { safetyMarginRatio: _ratio, ...rest } = input()
    expect(fitRequest(rest).budget.safetyMargin).toBe(50)
  })

  it('counts images sent with the question', () => {
    expect(fitRequest(input({ imageCount: 2, contextWindow: 3000 })).budget.parts[3]).toEqual({ name: 'user', tokens: 9 + 2 * 768 })
  })
})

describe('fitRequest — 1. history, oldest turns first', () => {
  // Four turns (152) + system 104 + tools 50 + question 9 = 315. With 241 available, two turns must go
  // and the archive line ("archived chat:1#archived-history", 2 words) makes the question cost 11.
  const history = [...turn(1), ...turn(2), ...turn(3), ...turn(4)]
  const tight = input({ history, contextWindow: 341 })

  it('moves the oldest whole turns out and keeps the rest', () => {
    const fitted = fitRequest(tight)
    expect([fitted.archivedHistory, fitted.history]).toEqual([[...turn(1), ...turn(2)], [...turn(3), ...turn(4)]])
  })

  it('lists the archived turns as one archive entry in the context block', () => {
    expect(fitRequest(tight).context.archivedRefs).toEqual([
      {
        fileId: 'chat:1#archived-history',
        type: 'history',
        source: 'chat:1',
        summary:
          'The 4 oldest messages of this chat (2 turns), moved out to fit the context window. First question: "Turn 1 question: w w w w w w w"; last: "Turn 2 question: w w w w w w w".',
        archivedAt: '2026-11-29T12:00:00.000Z',
        tokensSaved: 76,
        itemCount: 4
      }
    ])
  })

  it('renders the user prompt with the archive entry', () => {
    expect(fitRequest(tight).user).toBe(`archived chat:1#archived-history\n${QUESTION}`)
  })

  it('records the trim', () => {
    expect(fitRequest(tight).budget.trimmed).toEqual([
      {
        part: 'history',
        detail: 'Archived the 4 oldest messages (2 of 4 turns) as chat:1#archived-history; the model can read them with a tool.',
        tokensSaved: 76
      }
    ])
  })

  it('archives one more turn when the archive entry itself tips the request over', () => {
    expect(fitRequest({ ...tight, contextWindow: 340 }).history).toEqual(turn(4))
  })

  it('never separates a tool call from its tool result', () => {
    const withTools: RequestMessage[] = [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'execute_sql', args: { sql_query: words(50) } }] },
      { role: 'tool', content: words(50), toolCallId: 't1' },
      { role: 'assistant', content: 'done' },
      ...turn(2)
    ]
    expect(fitRequest(input({ history: withTools, contextWindow: 341 })).history).toEqual(turn(2))
  })

  it('keeps archive entries that were already in the context block', () => {
    const earlier = { fileId: 'old', type: 'history', source: 'chat:0', summary: 's', archivedAt: 't', tokensSaved: 1 }
    const fitted = fitRequest({ ...tight, context: { files: [], archivedRefs: [earlier] }, contextWindow: 400 })
    expect(fitted.context.archivedRefs?.map((ref) => ref.fileId)).toEqual(['old', 'chat:1#archived-history'])
  })

  it('leaves memory alone when archiving history is enough', () => {
    const memory = [memoryItem(1, 'personal_fact', '2026-01-01', 5)]
    expect(fitRequest({ ...tight, memory, contextWindow: 347 }).memory).toEqual({ included: memory, dropped: [] })
  })

  it('shows the archive entry to the model through the real template', () => {
    const longer = [...history, ...turn(5), ...turn(6), ...turn(7), ...turn(8)]
    const fitted = fitRequest({ ...tight, history: longer, renderUser: (context) => buildUserPrompt(QUESTION, context), contextWindow: 500 })
    expect(fitted.user).toContain('"fileId": "chat:1#archived-history"')
  })
})

describe('fitRequest — 2. memory, lowest priority and oldest first', () => {
  const memory = [
    memoryItem(1, 'global_rule', '2026-01-01', 9),
    memoryItem(2, 'personal_fact', '2026-03-01', 9),
    memoryItem(3, 'personal_fact', '2026-02-01', 9),
    memoryItem(4, 'global_rule', '2026-02-01', 9)
  ]
  // All four memories cost 40; with no history, 104 + 40 + 50 + 9 = 203. 183 available: two must go.
  const tight = input({ memory, contextWindow: 283 })

  it('drops personal facts, oldest first, before any global rule', () => {
    expect(fitRequest(tight).memory.included.map((item) => item.id)).toEqual([1, 4])
  })

  it('returns the dropped memories with the reason', () => {
    expect(fitRequest(tight).memory.dropped.map(({ id, reason }) => ({ id, reason }))).toEqual([
      { id: 3, reason: 'Left out to fit the context window (lowest priority and oldest first).' },
      { id: 2, reason: 'Left out to fit the context window (lowest priority and oldest first).' }
    ])
  })

  it('records one trim per memory', () => {
    expect(fitRequest(tight).budget.trimmed).toEqual([
      { part: 'memory', detail: `Memory #3 (personal_fact) left out: "${words(9, 'm3')}"`, tokensSaved: 10 },
      { part: 'memory', detail: `Memory #2 (personal_fact) left out: "${words(9, 'm2')}"`, tokensSaved: 10 }
    ])
  })

  it('drops the oldest global rule once the personal facts are gone', () => {
    expect(fitRequest({ ...tight, contextWindow: 273 }).memory.included.map((item) => item.id)).toEqual([4])
  })

  it('re-renders the system prompt with how many memories were left out', () => {
    const spy = vi.fn(renderSystem)
    fitRequest({ ...tight, renderSystem: spy })
    expect(spy.mock.calls.at(-1)?.[0].droppedMemoryCount).toBe(2)
  })

  it('renders the system prompt last with the final memory, so a caller may keep its last render', () => {
    const spy = vi.fn(renderSystem)
    const fitted = fitRequest({ ...tight, renderSystem: spy })
    expect(spy.mock.results.at(-1)?.value).toBe(fitted.system)
  })

  it('archives history before dropping any memory', () => {
    const fitted = fitRequest({ ...tight, history: turn(1), contextWindow: 285 })
    expect([fitted.history.length, fitted.memory.dropped.map((item) => item.id)]).toEqual([0, [3, 2]])
  })
})

describe('fitRequest — 3. skills list, from its end', () => {
  const skills: SkillListItem[] = [
    { name: 'revenue', description: words(8, 'r') },
    { name: 'churn', description: words(8, 'c') },
    { name: 'funnel', description: words(8, 'f') }
  ]
  // Each skill line "- name: d×8" is 10 words; 104 + 30 + 50 + 9 = 193; 175 available → two go.
  const tight = input({ skills, contextWindow: 275 })

  it('drops skills from the end of the list', () => {
    const fitted = fitRequest(tight)
    expect([fitted.skills.included.map((s) => s.name), fitted.skills.dropped.map((s) => s.name)]).toEqual([
      ['revenue'],
      ['funnel', 'churn']
    ])
  })

  it('records each dropped skill', () => {
    expect(fitRequest(tight).budget.trimmed[0]).toEqual({ part: 'skills', detail: 'Skill "funnel" left out of the skills list', tokensSaved: 11 })
  })

  it('drops memory before skills', () => {
    const memory = [memoryItem(1, 'personal_fact', '2026-01-01', 9)]
    const fitted = fitRequest({ ...tight, memory, contextWindow: 293 })
    expect([fitted.memory.dropped.length, fitted.skills.dropped.length]).toEqual([1, 0])
  })
})

describe('fitRequest — 4. large context summaries, largest first', () => {
  const file = (name: string, summaryWords: number): FileMeta => ({ name, fileId: name, type: 'text/plain', summary: words(summaryWords, 's') })
  const context: ContextBlock = { files: [file('small.txt', 20), file('big.txt', 60), file('mid.txt', 40)] }
  // Summaries cost 120; 104 + 50 + 5 + 120 + 4 = 283. 240 available: the 60-word one goes (saves 60 − 15).
  const tight = input({ context, contextWindow: 340 })

  it('replaces the largest summary with a note and keeps the rest', () => {
    expect(fitRequest(tight).context.files.map((f) => f.summary)).toEqual([words(20, 's'), SUMMARY_LEFT_OUT, words(40, 's')])
  })

  it('records the trim with the file it came from', () => {
    expect(fitRequest(tight).budget.trimmed).toEqual([{ part: 'context', detail: 'Summary of file "big.txt" (big.txt) left out', tokensSaved: 45 }])
  })

  it('trims summaries of earlier results too', () => {
    const result = {
      resultId: 'res_1',
      title: 'Revenue',
      status: 'success',
      summary: words(80, 'r'),
      contentTokens: 900,
      createdAt: '2026-01-01',
      toolCallsMeta: [],
      outputFiles: []
    }
    const fitted = fitRequest({ ...tight, context: { files: [], resultsMeta: [result] }, contextWindow: 300 })
    expect(fitted.context.resultsMeta?.[0].summary).toBe(SUMMARY_LEFT_OUT)
  })
})

describe('fitRequest — what is never trimmed', () => {
  it('fails before sending when the window is smaller than the instructions alone', () => {
    expect(() => fitRequest(input({ contextWindow: 100, reservedOutput: 10 }))).toThrow(
      new ContextWindowTooSmallError(100, { system: 104, tools: 50, history: 0, user: 9, output: 10, safetyMargin: 0 })
    )
  })

  it('says what is needed against the window and what to do', () => {
    expect(() => fitRequest(input({ contextWindow: 100, reservedOutput: 10, safetyMarginRatio: 0.05 }))).toThrow(
      "The request needs at least 178 tokens (system prompt 104, tool schemas 50, question and context 9, reserved output 10, safety margin 5) but the model's context window is 100 tokens, even with all history, memory, skills and context summaries left out. Nothing was sent. Use a model (or server setting) with a larger context window, reserve less output, or shorten the project's instructions and rules."
    )
  })

  it('trims everything trimmable before giving up', () => {
    const memory = [memoryItem(1, 'global_rule', '2026-01-01', 9)]
    const error = captureError(() => fitRequest(input({ memory, history: turn(1), contextWindow: 250 })))
    // Instructions, tools, the question with the archive line (5 + 2 words + 4), reserved output.
    expect(error instanceof ContextWindowTooSmallError && error.needed).toBe(104 + 50 + 11 + 100)
  })

  it('gives up after two renders, with the sizes the steps would end at, when even trimming everything cannot fit', () => {
    const file: FileMeta = { name: 'big.txt', fileId: 'f', type: 'text/plain', summary: words(60, 's') }
    const hopeless = input({
      memory: [memoryItem(1, 'global_rule', '2026-01-01', 9), memoryItem(2, 'personal_fact', '2026-01-02', 9)],
      skills: Array.from({ length: 40 }, (_, index) => ({ name: `skill${index}`, description: words(8, 'd') })),
      history: [...turn(1), ...turn(2), ...turn(3)],
      context: { files: [file] },
      contextWindow: 250
    })
    const system = vi.fn(renderSystem)
    const error = captureError(() => fitRequest({ ...hopeless, renderSystem: system }))
    // As given, then with everything trimmed at once; not once per batch of skills.
    expect(system).toHaveBeenCalledTimes(2)
    expect(system.mock.calls[1][0]).toMatchObject({ memory: [], skills: [], droppedMemoryCount: 2, droppedSkillCount: 40 })
    // The step-by-step trimming ends in the same state: instructions, tools, the archive line, the summary's note and
    // the question, reserved output.
    expect(error instanceof ContextWindowTooSmallError && error.needed).toBe(104 + 50 + (2 + count(SUMMARY_LEFT_OUT) + 5 + 4) + 100)
  })

  it("never trims this run's own messages", () => {
    const inRunMessages = turn(9)
    expect(() => fitRequest(input({ inRunMessages, contextWindow: 300 }))).toThrow(
      "system prompt 104, tool schemas 50, this run's messages 38, question and context 9"
    )
  })

  it('refuses a negative or fractional size with the name of the input', () => {
    expect(() => fitRequest(input({ reservedOutput: -1 }))).toThrow('fitRequest: reservedOutput must be a whole number ≥ 0, got -1')
  })
})

describe('fitRequest — purity', () => {
  it('changes none of its inputs', () => {
    const file: FileMeta = { name: 'big.txt', fileId: 'f', type: 'text/plain', summary: words(200, 's') }
    const fitInput = input({
      history: [...turn(1), ...turn(2)],
      memory: [memoryItem(1, 'personal_fact', '2026-01-01', 9)],
      skills: [{ name: 'x', description: 'y' }],
      context: { files: [file] },
      contextWindow: 300
    })
    const before = JSON.stringify(fitInput)
    fitRequest(fitInput)
    expect(JSON.stringify(fitInput)).toBe(before)
  })
})

function captureError(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}
