import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { describe, expect, it } from 'vitest'
import type { ChatMessageView } from '../../../shared/api'
import { CSV_BOM, parseCsv, tableToCsv } from './csv'
import { chatToMarkdown, escapeHtmlOutsideCode, markdownTable } from './markdown'
import { csvTitle, fileNameFrom } from './save'

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

  it('quotes a cell holding either separator, so a semicolon spreadsheet sees one cell', () => {
    const csv = tableToCsv({ columns: ['a;b', 'c'], rows: [['x;=1+1;y', 'plain'], ['1,5', 'two\r\nlines']] })
    expect(csv).toBe(`${CSV_BOM}"a;b",c\r\n"x;=1+1;y",plain\r\n"1,5","two\r\nlines"\r\n`)
  })

  it('quotes and neutralises every formula lead: = + - @ tab and CR', () => {
    const leads = ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\t=1+1', '\r=1+1']
    const csv = tableToCsv({ columns: ['x'], rows: leads.map((lead) => [lead]) })
    expect(csv.split('\r\n').slice(1, 5)).toEqual(['"\'=1+1"', '"\'+1+1"', '"\'-1+1"', '"\'@SUM(A1)"'])
    expect(parseCsv(csv).slice(1)).toEqual(leads.map((lead) => [`'${lead}`]))
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

describe('escapeHtmlOutsideCode', () => {
  it('escapes HTML in prose and keeps it as written in code spans and code blocks', () => {
    const markdown = 'Hi <img src=x onerror=alert(1)> and `a<b` and ``x ` <i>``\n\n```html\n<script>1</script>\n```\n\n<b>after</b>'
    expect(escapeHtmlOutsideCode(markdown)).toBe(
      'Hi &lt;img src=x onerror=alert(1)> and `a<b` and ``x ` <i>``\n\n```html\n<script>1</script>\n```\n\n&lt;b>after&lt;/b>'
    )
  })

  it('escapes after an unclosed backtick, which opens no code span', () => {
    expect(escapeHtmlOutsideCode('a ` <svg onload=alert(1)>')).toBe('a ` &lt;svg onload=alert(1)>')
  })
})

describe('the Markdown export as a viewer that renders raw HTML shows it', () => {
  const hostile = '<img src=x onerror=alert(1)>'
  const messages: ChatMessageView[] = [
    { id: 'u1', role: 'user', text: `Show ${hostile}`, createdAt: '2026-11-29T09:00:00Z' },
    {
      id: 'a1',
      role: 'assistant',
      text: `Here <script>alert(1)</script> is <citation-number id="q1" column="\`${hostile}">7</citation-number>, and \`<kept>\`.`,
      createdAt: '2026-11-29T09:00:05Z',
      status: 'done',
      toolCalls: [
        { callId: 'c1', name: 'execute_sql', args: { sql_query: 'SELECT 1' }, ok: true, output: '', data: { queryId: 'q1', databaseId: 'shop', sql: 'SELECT 1', engine: 'duckdb', columns: [hostile], rows: [[`<b>${hostile}</b>`]], totalRows: 1, shownRows: 1 } }
      ]
    }
  ]

  it('has no live HTML from the model, the cells or the column names, and shows their text', async () => {
    const markdown = await chatToMarkdown({ title: `<svg onload=alert(1)>`, projectName: null, messages, exportedAt: new Date('2026-11-29T10:00:00Z'), chartImage: async () => null })
    const html = micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] })
    expect(html).not.toMatch(/<(img|script|svg|b)[\s>]/)
    expect(html).toContain('<h1>&lt;svg onload=alert(1)&gt;</h1>')
    expect(html).toContain('<th>&lt;img src=x onerror=alert(1)&gt;</th>')
    expect(html).toContain('<td>&lt;b&gt;&lt;img src=x onerror=alert(1)&gt;&lt;/b&gt;</td>')
    expect(html).toContain('Here &lt;script&gt;alert(1)&lt;/script&gt; is 7')
    expect(html).toContain('<code>&lt;kept&gt;</code>')
    expect(html).toContain('<code>`&lt;img src=x onerror=alert(1)&gt;</code>')
  })
})

describe('fileNameFrom', () => {
  it('makes a safe file name from any title', () => {
    expect(fileNameFrom('Revenue / by month: Q1?', 'csv')).toBe('Revenue-by-month-Q1.csv')
    expect(fileNameFrom('../../', 'md')).toBe('glassbox-export.md')
  })

  it('names a CSV after the chat’s question and the query, not a bare query number', () => {
    expect(fileNameFrom(csvTitle('Monthly revenue in 2024', 'ab12cd_q2'), 'csv')).toBe('Monthly-revenue-in-2024-query-2.csv')
    expect(fileNameFrom(csvTitle('New chat', 'ab12cd_q1'), 'csv')).toBe('Glassbox-query-1.csv')
    expect(fileNameFrom(csvTitle(undefined, null), 'csv')).toBe('Glassbox-query-result.csv')
  })
})
