import { describe, expect, it } from 'vitest'
import type { ChatMessageView, ToolCallView } from '../../shared/api'
import type { DisplayChartResult, ExecuteSqlResult } from '../../shared/tools'
import { escapeCurrency } from './components/chat/escape-currency'
import { findTrigger } from './components/chat/mention-menu'
import { remarkHtmlAsText } from './components/chat/remark-html-as-text'
import { diffLines } from './components/inspector/line-diff'
import { characterCount } from './plural'
import { EMPTY_DRAFT, messageTextOf } from './state/draft'
import { newestReply } from './state/newest-reply'
import { applyRunEvents, mergeChatRead } from './state/run-events'
import { readChart, readClarification, readFollowUps, readTable } from './state/tool-data'

// The renderer's pure logic, one behaviour per test.

describe('applyRunEvents', () => {
  const user: ChatMessageView = { id: 'm1', role: 'user', text: 'Revenue?', createdAt: '2026-11-29T09:00:00Z' }

  it('creates the streaming answer on run-start and appends deltas', () => {
    const messages = applyRunEvents(
      [user],
      [
        { type: 'run-start', runId: 'r1', chatId: 'c1', model: 'm' },
        { type: 'text-delta', runId: 'r1', text: 'Hel' },
        { type: 'text-delta', runId: 'r1', text: 'lo' }
      ]
    )
    expect(messages.map((message) => [message.role, message.text, message.status])).toEqual([
      ['user', 'Revenue?', undefined],
      ['assistant', 'Hello', 'streaming']
    ])
  })

  it('keeps the untouched messages identical (memoised rows do not re-render)', () => {
    const messages = applyRunEvents([user], [{ type: 'text-delta', runId: 'r1', text: 'x' }])
    expect(messages[0]).toBe(user)
  })

  it('does not change its input', () => {
    const input = [user]
    applyRunEvents(input, [{ type: 'text-delta', runId: 'r1', text: 'x' }])
    expect(input).toEqual([user])
  })

  it('fills a tool call in on tool-end', () => {
    const messages = applyRunEvents(
      [],
      [
        { type: 'tool-start', runId: 'r1', callId: 't1', name: 'execute_sql', args: { sql_query: 'SELECT 1' } },
        { type: 'tool-end', runId: 'r1', callId: 't1', name: 'execute_sql', ok: true, output: '1 row', data: { rows: [[1]] } }
      ]
    )
    expect(messages[0].toolCalls).toEqual([{ callId: 't1', name: 'execute_sql', args: { sql_query: 'SELECT 1' }, ok: true, output: '1 row', data: { rows: [[1]] } }])
  })

  it('marks a stopped run cancelled and a failed one with its message', () => {
    const stopped = applyRunEvents([], [{ type: 'end', runId: 'r1', stopReason: 'cancelled', answer: '' }])
    const failed = applyRunEvents([], [{ type: 'error', runId: 'r2', message: 'Model server closed the connection.' }])
    expect(stopped[0].status).toBe('cancelled')
    expect([failed[0].status, failed[0].error]).toEqual(['failed', 'Model server closed the connection.'])
  })
})

describe('mergeChatRead', () => {
  const user: ChatMessageView = { id: 'm1', role: 'user', text: 'Revenue?', createdAt: '2026-11-29T09:00:00Z' }
  const streamed = applyRunEvents([user], [
    { type: 'run-start', runId: 'r1', chatId: 'c1', model: 'm' },
    { type: 'text-delta', runId: 'r1', text: 'Revenue was 1,672 in March' }
  ])

  it('keeps the streamed text when the read was taken earlier in the same run', () => {
    const read: ChatMessageView[] = [user, { id: 'm2', role: 'assistant', text: 'Revenue', runId: 'r1', createdAt: user.createdAt, status: 'streaming' }]
    const merged = mergeChatRead(streamed, read)
    expect(merged.map((message) => [message.id, message.text, message.status])).toEqual([
      ['m1', 'Revenue?', undefined],
      ['m2', 'Revenue was 1,672 in March', 'streaming']
    ])
  })

  it('takes the stored answer once the read has the run finished', () => {
    const read: ChatMessageView[] = [user, { id: 'm2', role: 'assistant', text: 'Revenue was 1,672 in March.', runId: 'r1', createdAt: user.createdAt, status: 'done' }]
    expect(mergeChatRead(streamed, read)).toEqual(read)
  })

  it('keeps what is shown when the read predates a run streaming here', () => {
    expect(mergeChatRead(streamed, [user])).toBe(streamed)
  })

  it('takes the read when nothing streams here', () => {
    const read: ChatMessageView[] = [user, { id: 'm2', role: 'assistant', text: 'Hi', runId: 'r0', createdAt: user.createdAt, status: 'done' }]
    expect(mergeChatRead([user], read)).toEqual(read)
  })
})

describe('tool data readers', () => {
  const call = (name: string, args: Record<string, unknown>, data?: unknown): ToolCallView => ({ callId: 'c', name, args, ok: true, output: '', data })

  const sqlResult: ExecuteSqlResult = { queryId: 'q1', databaseId: 'shop', sql: 'SELECT a, b FROM t', engine: 'duckdb', columns: ['a', 'b'], rows: [[1, 2]], totalRows: 40, shownRows: 1 }

  it('reads an execute_sql result with the total count', () => {
    expect(readTable(sqlResult)).toEqual({ queryId: 'q1', columns: ['a', 'b'], rows: [[1, 2]], rowCount: 40 })
  })

  it('reads nothing from data of another shape', () => {
    expect(readTable('4 rows')).toBeNull()
    expect(readTable({ ...sqlResult, totalRows: undefined, rowCount: 40 })).toBeNull()
    expect(readTable({ query_id: 'q2', rows: [{ month: '2018-01', revenue: 3 }] })).toBeNull()
  })

  it('draws a chart from its args and the rows of the query it names', () => {
    const table = { queryId: 'q1', columns: ['month', 'revenue'], rows: [['2018-01', 3]], rowCount: 1 }
    const spec = readChart(call('display_chart', { query_id: 'q1', chart_type: 'line', x_axis_key: 'month', series: [{ data_key: 'revenue' }], title: 'Revenue' }), new Map([['q1', table]]))
    expect(spec).toEqual({ queryId: 'q1', chartType: 'line', xAxisKey: 'month', series: [{ dataKey: 'revenue', label: 'revenue' }], title: 'Revenue', table })
  })

  it('prefers the rows carried by the chart result itself', () => {
    const result: DisplayChartResult = { queryId: 'q9', chartType: 'bar', xAxisKey: 'x', xAxisType: 'number', series: [{ dataKey: 'y', label: 'Y' }], title: 'T', columns: ['x', 'y'], rows: [[1, 2]], totalRows: 1 }
    const spec = readChart(call('display_chart', {}, result), new Map())
    expect(spec).toEqual({ queryId: 'q9', chartType: 'bar', xAxisKey: 'x', series: [{ dataKey: 'y', label: 'Y' }], title: 'T', table: { queryId: 'q9', columns: ['x', 'y'], rows: [[1, 2]], rowCount: 1 } })
  })

  it('reads a clarification and follow-ups from args', () => {
    expect(readClarification(call('clarification', { question: 'Which period?', options: ['2018', '2019'] }))).toEqual({ question: 'Which period?', options: ['2018', '2019'] })
    expect(readFollowUps(call('suggest_follow_ups', { suggestions: ['By month', 'By store'] }))).toEqual(['By month', 'By store'])
  })
})

describe('findTrigger', () => {
  it('finds a skill trigger at the start of a word', () => {
    expect(findTrigger('use /rev', 8)).toEqual({ kind: 'skill', query: 'rev', start: 4, end: 8 })
  })

  it('finds a table trigger', () => {
    expect(findTrigger('revenue of @Ord', 15)).toEqual({ kind: 'table', query: 'ord', start: 11, end: 15 })
  })

  it('ignores a slash inside a word', () => {
    expect(findTrigger('a/b', 3)).toBeNull()
  })
})

describe('escapeCurrency', () => {
  it('keeps dollar amounts from opening math', () => {
    expect(escapeCurrency('from $12.4k to $24.9k')).toBe('from \\$12.4k to \\$24.9k')
  })

  it('leaves math, code and escaped dollars alone', () => {
    expect(escapeCurrency('$x^2$ and $$1+1$$ and `$5` and \\$3')).toBe('$x^2$ and $$1+1$$ and `$5` and \\$3')
  })
})

describe('remarkHtmlAsText', () => {
  it('turns block and inline HTML into text', () => {
    const tree = {
      type: 'root',
      children: [
        { type: 'html', value: '<script>alert(1)</script>' },
        { type: 'paragraph', children: [{ type: 'text', value: 'a ' }, { type: 'html', value: '<b>' }] }
      ]
    }
    remarkHtmlAsText()(tree)
    expect(tree).toEqual({
      type: 'root',
      children: [
        { type: 'paragraph', children: [{ type: 'text', value: '<script>alert(1)</script>' }] },
        { type: 'paragraph', children: [{ type: 'text', value: 'a ' }, { type: 'text', value: '<b>' }] }
      ]
    })
  })
})

describe('diffLines', () => {
  it('marks removed and added lines around the common ones', () => {
    expect(diffLines('a\nb\nc', 'a\nc\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'd' }
    ])
  })
})

describe('messageTextOf', () => {
  it('puts a large paste after the typed question', () => {
    expect(messageTextOf({ ...EMPTY_DRAFT, text: 'Summarise:', pasted: 'rows…' })).toBe('Summarise:\n\nrows…')
  })

  it('sends the paste alone when nothing is typed', () => {
    expect(messageTextOf({ ...EMPTY_DRAFT, text: '  ', pasted: 'rows…' })).toBe('rows…')
  })
})

describe('counts for people', () => {
  it('says a text length in characters, k or M', () => {
    expect([1, 820, 24_400, 1_000_000].map(characterCount)).toEqual(['1 character', '820 characters', '24 k characters', '1.0 M characters'])
  })
})

describe('newestReply', () => {
  it('lets only the reply to the newest request through, whatever order replies land in', () => {
    const lists = newestReply()
    const typed = lists.begin()
    const cleared = lists.begin()
    expect([typed(), cleared()]).toEqual([false, true])
    const other = newestReply().begin()
    expect([cleared(), other()]).toEqual([true, true])
  })
})
