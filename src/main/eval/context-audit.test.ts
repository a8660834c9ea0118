import { afterAll, describe, expect, it } from 'vitest'
import type { TableRef } from '../project/types'
import { auditContext, createSqlTableParser, filesRead, tablesByPattern } from './context-audit'

const parser = createSqlTableParser()
afterAll(() => parser.close())

const ORDERS: TableRef = { type: 'duckdb', database: 'shop', schema: 'main', table: 'orders', dir: 'databases/type=duckdb/database=shop/schema=main/table=orders', files: ['columns.md', 'description.md', 'preview.md'] }
const CUSTOMERS: TableRef = { type: 'duckdb', database: 'shop', schema: 'main', table: 'customers', dir: 'databases/type=duckdb/database=shop/schema=main/table=customers', files: ['columns.md', 'annotations.md'] }

describe('context audit', () => {
  it('finds the tables a query reads through DuckDB’s parser, not CTE names or aliases', async () => {
    const sql = 'WITH t AS (SELECT * FROM main.orders o JOIN customers c USING (customer_id)) SELECT count(*) FROM t WHERE x IN (SELECT y FROM payments)'
    expect(await parser.tables(sql)).toEqual([
      { schema: 'main', table: 'orders' },
      { schema: null, table: 'customers' },
      { schema: null, table: 'payments' }
    ])
  })

  it('falls back to the names after FROM and JOIN when the parser refuses the query', () => {
    expect(tablesByPattern('SELEC * FROM "main"."orders" JOIN customers ON 1')).toEqual([
      { schema: 'main', table: 'orders' },
      { schema: null, table: 'customers' }
    ])
  })

  it('lists the files read and, per table touched, the metadata files never read', () => {
    const read = filesRead('/p', [
      { name: 'read', args: { file_path: './RULES.md' }, ok: true },
      { name: 'read', args: { file_path: '/p/databases/type=duckdb/database=shop/schema=main/table=orders/description.md' }, ok: true },
      { name: 'read', args: { file_path: 'RULES.md' }, ok: true },
      { name: 'read', args: { file_path: 'missing.md' }, ok: false },
      { name: 'execute_sql', args: { sql_query: 'SELECT 1' }, ok: true }
    ])
    expect(read).toEqual(['RULES.md', 'databases/type=duckdb/database=shop/schema=main/table=orders/description.md'])
    const audit = auditContext({ read, touched: [{ schema: null, table: 'ORDERS' }, { schema: 'main', table: 'customers' }, { schema: null, table: 'ghost' }], tables: [ORDERS, CUSTOMERS] })
    expect(audit).toEqual({
      filesRead: read,
      tables: [
        { table: 'main.orders', dir: ORDERS.dir, unread: ['columns.md'] },
        { table: 'main.customers', dir: CUSTOMERS.dir, unread: ['columns.md', 'annotations.md'] },
        { table: 'ghost', dir: null, unread: [] }
      ]
    })
  })
})
