import { describe, expect, it } from 'vitest'
import { buildContextBlock, describeResult, EMPTY_RESULT_SUMMARY, type EarlierResult } from './results'

const oneTokenPerWord = (text: string): number => text.split(/\s+/).filter(Boolean).length

const base: EarlierResult = {
  resultId: 'res_1',
  title: 'Monthly revenue',
  status: 'success',
  content: 'Looked at orders.\n\nIn conclusion, March was best.',
  createdAt: '2026-03-01T10:00:00.000Z',
  toolCalls: [{ callId: 'c1', toolName: 'execute_sql', status: 'success' }],
  outputFiles: []
}

describe('describeResult', () => {
  it('keeps the metadata in the documented key order with the extracted summary', () => {
    expect(describeResult(base, oneTokenPerWord)).toEqual({
      resultId: 'res_1',
      title: 'Monthly revenue',
      status: 'success',
      summary: 'In conclusion, March was best.',
      contentTokens: 8,
      createdAt: '2026-03-01T10:00:00.000Z',
      toolCallsMeta: [{ callId: 'c1', toolName: 'execute_sql', status: 'success' }],
      outputFiles: []
    })
  })

  it('says so when the result has no content', () => {
    expect(describeResult({ ...base, content: '' }, oneTokenPerWord)).toMatchObject({
      summary: EMPTY_RESULT_SUMMARY,
      contentTokens: 0
    })
  })

  it('uses the short content itself when it has no keyword', () => {
    expect(describeResult({ ...base, content: 'March: 12 EUR.' }, oneTokenPerWord).summary).toBe('March: 12 EUR.')
  })

  it('summarises a Chinese-only result from its conclusion', () => {
    const content = '先查询了订单表。\n\n总的来说，三月份销售额最高。'
    expect(describeResult({ ...base, content }, oneTokenPerWord).summary).toBe('总的来说，三月份销售额最高。')
  })

  it('copies tool calls rather than sharing them', () => {
    const meta = describeResult(base, oneTokenPerWord)
    expect(meta.toolCallsMeta[0]).not.toBe(base.toolCalls?.[0])
  })

  it('defaults missing tool calls and output files to empty lists', () => {
    const { toolCalls: _calls, outputFiles: _files, ...bare } = base
    expect(describeResult(bare, oneTokenPerWord)).toMatchObject({ toolCallsMeta: [], outputFiles: [] })
  })
})

describe('buildContextBlock', () => {
  it('has only files when nothing else is given', () => {
    expect(buildContextBlock({})).toEqual({ files: [] })
  })

  it('leaves out empty results and archive lists', () => {
    expect(Object.keys(buildContextBlock({ files: [], results: [], archivedRefs: [] }))).toEqual(['files'])
  })

  it('orders the keys files, resultsMeta, totalTokens, archivedRefs', () => {
    const ref = { fileId: 'h1', type: 'history', source: 'chat', summary: 's', archivedAt: 't', tokensSaved: 5 }
    const block = buildContextBlock({ archivedRefs: [ref], totalTokens: 3, results: [describeResult(base)], files: [] })
    expect(Object.keys(block)).toEqual(['files', 'resultsMeta', 'totalTokens', 'archivedRefs'])
  })
})
