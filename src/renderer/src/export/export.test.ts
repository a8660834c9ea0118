import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { describe, expect, it } from 'vitest'
import type { ChatMessageView } from '../../../shared/api'
import { CSV_BOM, parseCsv, tableToCsv } from './csv'
import { chatToMarkdown, markdownTable } from './markdown'
import { fileNameFrom } from './save'

describe('tableToCsv', () => {
  it('parses back to the same cells, with quotes, commas, new lines and NULLs', () => {
    const table = {
      columns: ['name', 'note, with comma', 'amount'],
      rows: [
        ['Ada "the" Count', 'line one\nline two', 1234.5],
        ['Émile', null, -3],
        [' padded ', '', 0]
      ]
    }
    const csv = tableToCsv(table)
    expect(csv.startsWith(CSV_BOM)).toBe(true)
    expect(parseCsv(csv)).toEqual([
      ['name', 'note, with comma', 'amount'],
      ['Ada "the" Count', 'line one\nline two', '1234.5'],
      ['Émile', '', '-3'],
      [' padded ', '', '0']
    ])
  })

  it('keeps a spreadsheet from running a text cell as a formula', () => {
    expect(parseCsv(tableToCsv({ columns: ['x'], rows: [['=HYPERLINK("http://evil")'], ['-12'], ['@SUM(A1)']] }))).toEqual([['x'], ['\'=HYPERLINK("http://evil")'], ['-12'], ["'@SUM(A1)"]])
  })
})

describe('markdownTable', () => {
  it('escapes pipes and right-aligns number columns', () => {
    expect(markdownTable({ columns: ['a|b', 'n'], rows: [['x|y', 1500]] })).toBe(`| a\\|b | n |\n| --- | ---: |\n| x\\|y | ${(1500).toLocaleString()} |`)
  })
})

describe('chatToMarkdown', () => {
  const messages: ChatMessageView[] = [
    { id: 'u1', role: 'user', text: 'Revenue by month?', createdAt: '2026-11-29T09:00:00Z' },
    {
      id: 'a1',
      role: 'assistant',
      text: 'April was highest: <citation-number id="ab12cd_q1" column="revenue">24.9</citation-number>k.',
      createdAt: '2026-11-29T09:00:05Z',
      status: 'done',
      figures: { model: 'qwen3', firstTokenMs: 500, totalMs: 8200, inputTokens: 5230, outputTokens: 214 },
      toolCalls: [
        { callId: 'c1', name: 'execute_sql', args: { sql_query: 'SELECT month, revenue FROM t -- ```' }, ok: true, output: '', data: { queryId: 'ab12cd_q1', databaseId: 'shop', sql: 'SELECT month, revenue FROM t', engine: 'duckdb', columns: ['month', 'revenue'], rows: [['2018-01', 12.4], ['2018-04', 24.9]], totalRows: 2, shownRows: 2 } },
        { callId: 'c2', name: 'display_chart', args: { query_id: 'ab12cd_q1', chart_type: 'bar', x_axis_key: 'month', series: [{ data_key: 'revenue' }], title: 'Revenue [k$]' }, ok: true, output: '' }
      ]
    }
  ]

  it('writes the question, the SQL, the rows, the chart image and the cited number with its source', async () => {
    const drawn: string[] = []
    const markdown = await chatToMarkdown({
      title: 'Revenue',
      projectName: 'shop',
      messages,
      exportedAt: new Date('2026-11-29T10:00:00Z'),
      chartImage: async (spec) => (drawn.push(`${spec.title}:${spec.table?.rows.length}`), 'data:image/png;base64,AAAA')
    })
    expect(drawn).toEqual(['Revenue [k$]:2'])
    // Rendered as a GFM viewer would: a real table, the SQL intact in its code block, the image, a footnote.
    const html = renderToStaticMarkup(createElement(ReactMarkdown, { remarkPlugins: [remarkGfm], urlTransform: (url: string) => url }, markdown))
    expect(html).toContain('<table>')
    expect(html).toContain('<td>2018-04</td>')
    expect(html).toContain('<code class="language-sql">SELECT month, revenue FROM t -- ```\n</code>')
    expect(html).toContain('<img src="data:image/png;base64,AAAA" alt="Revenue k$"/>')
    expect(html).toMatch(/<section data-footnotes="true"/)
    expect(markdown).toContain('## Question 1\n\nRevenue by month?')
    expect(markdown).toContain('![Revenue k$](data:image/png;base64,AAAA)')
    expect(markdown).toContain('April was highest: 24.9[^1]k.')
    expect(markdown).toContain('[^1]: 24.9 comes from query 1 (`ab12cd_q1`), column `revenue`')
    expect(markdown).toContain('qwen3')
    expect(markdown).not.toContain('<citation-number')
  })
})

describe('fileNameFrom', () => {
  it('makes a safe file name from any title', () => {
    expect(fileNameFrom('Revenue / by month: Q1?', 'csv')).toBe('Revenue-by-month-Q1.csv')
    expect(fileNameFrom('../../', 'md')).toBe('glassbox-export.md')
  })
})
