import type { TableData } from '../state/tool-data'

// A query result as CSV (RFC 4180) that spreadsheets open as they are: UTF-8 with a byte-order mark (Excel
// needs it to read accents), CRLF line ends, machine values (12500.5, not the locale's "12 500,5"), NULL
// as an empty field. A field is quoted when it holds a quote, a line break, either separator a spreadsheet
// may assume (`,`, or `;` where the comma is the decimal mark), or starts with a formula lead; a text cell
// that a spreadsheet would run as a formula (=, +, -, @, tab or CR first, not a number) also gets a
// leading apostrophe, as OWASP advises.

export const CSV_BOM = '\uFEFF'

export function tableToCsv(table: Pick<TableData, 'columns' | 'rows'>): string {
  const lines = [table.columns.map((column) => csvField(column)), ...table.rows.map((row) => table.columns.map((_, index) => csvField(row[index])))]
  return CSV_BOM + lines.map((fields) => fields.join(',')).join('\r\n') + '\r\n'
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  const formulaLead = /^[=+\-@\t\r]/.test(text)
  if (typeof value === 'string' && formulaLead && !Number.isFinite(Number(text))) text = `'${text}`
  return formulaLead || /[",;\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Reads CSV written by tableToCsv (or any RFC 4180 file) back into rows of strings. */
export function parseCsv(csv: string): string[][] {
  const text = csv.startsWith(CSV_BOM) ? csv.slice(1) : csv
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let at = 0; at < text.length; at++) {
    const char = text[at]
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"'
        at++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += char
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  return rows
}
