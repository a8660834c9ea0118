import { DuckDBInstance } from '@duckdb/node-api'
import { existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { quoteLiteral } from '../../src/main/engines/catalog'
import { seededRandom } from '../../src/main/seeded-random'

// The nao-layout fixture's DuckDB file: a jaffle shop in the shape of dbt's jaffle_shop_duckdb (the database
// nao's example ships), with rows drawn from a seeded generator. Five tables and three views take ~2.4 MB in DuckDB's
// 256 KB blocks, too much to commit, so the file is built at test set-up; the same seed gives the same rows,
// so the committed databases/ folder (written by `sync`) stays true.

export const NAO_LAYOUT_SEED = 20_180_101

const FIRST_NAMES = ['Ada', 'Bruno', 'Carla', 'Dmitri', 'Esther', 'Farid', 'Greta', 'Hector', 'Ines', 'Jamal', 'Keiko', 'Lars', 'Mona', 'Nils', 'Oona', 'Pablo', 'Rania', 'Stefan', 'Tomas', 'Vera']
const STATUSES: [string, number][] = [['completed', 0.68], ['shipped', 0.1], ['placed', 0.08], ['returned', 0.09], ['return_pending', 0.05]]
const METHODS: [string, number][] = [['credit_card', 0.5], ['coupon', 0.18], ['bank_transfer', 0.22], ['gift_card', 0.1]]

const DAY_MS = 86_400_000
const isoDay = (day: number): string => new Date(Date.UTC(2018, 0, 1) + day * DAY_MS).toISOString().slice(0, 10)

/** Builds the fixture's DuckDB file at `path` (replaced if it exists). */
export async function buildNaoLayoutDatabase(path: string, seed = NAO_LAYOUT_SEED): Promise<void> {
  const random = seededRandom(seed)
  const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1))
  const weighted = (choices: [string, number][]): string => {
    let roll = random()
    for (const [value, weight] of choices) if ((roll -= weight) < 0) return value
    return choices[choices.length - 1][0]
  }

  const customers = Array.from({ length: 100 }, (_, i) => [i + 1, FIRST_NAMES[int(0, FIRST_NAMES.length - 1)], `${String.fromCharCode(65 + int(0, 25))}.`])
  const orders: (string | number)[][] = []
  const payments: (string | number)[][] = []
  let day = 0
  for (let id = 1; id <= 99; id++) {
    day += int(0, 2)
    orders.push([id, int(1, 100), isoDay(day), weighted(STATUSES)])
    // Most orders are paid once; some split the bill (a coupon plus a card, say). Amounts are whole dollars, in cents.
    for (let split = random() < 0.14 ? 2 : 1; split > 0; split--) payments.push([payments.length + 1, id, weighted(METHODS), int(0, 30) * 100])
  }

  const values = (rows: (string | number)[][]): string =>
    rows.map((row) => `(${row.map((cell) => (typeof cell === 'string' ? quoteLiteral(cell) : String(cell))).join(', ')})`).join(',\n')

  const temp = `${path}.building`
  rmSync(temp, { force: true })
  const instance = await DuckDBInstance.create(temp)
  const connection = await instance.connect()
  try {
    // The raw tables, then the staging views and mart tables as the dbt project's models define them.
    await connection.run(`
      CREATE TABLE raw_customers (id INTEGER, first_name VARCHAR, last_name VARCHAR);
      CREATE TABLE raw_orders (id INTEGER, user_id INTEGER, order_date DATE, status VARCHAR);
      CREATE TABLE raw_payments (id INTEGER, order_id INTEGER, payment_method VARCHAR, amount INTEGER);
      INSERT INTO raw_customers VALUES ${values(customers)};
      INSERT INTO raw_orders VALUES ${values(orders)};
      INSERT INTO raw_payments VALUES ${values(payments)};
      CREATE VIEW stg_customers AS SELECT id AS customer_id, first_name, last_name FROM raw_customers;
      CREATE VIEW stg_orders AS SELECT id AS order_id, user_id AS customer_id, order_date, status FROM raw_orders;
      CREATE VIEW stg_payments AS SELECT id AS payment_id, order_id, payment_method, amount / 100 AS amount FROM raw_payments;
      CREATE TABLE orders AS
        SELECT o.order_id, o.customer_id, o.order_date, o.status,
          ${METHODS.map(([method]) => `SUM(CASE WHEN p.payment_method = '${method}' THEN p.amount ELSE 0 END) AS ${method}_amount`).join(',\n          ')},
          SUM(p.amount) AS amount
        FROM stg_orders o JOIN stg_payments p USING (order_id)
        GROUP BY ALL ORDER BY o.order_id;
      CREATE TABLE customers AS
        SELECT c.customer_id, c.first_name, c.last_name, MIN(o.order_date) AS first_order, MAX(o.order_date) AS most_recent_order,
          COUNT(o.order_id) AS number_of_orders, SUM(o.amount) AS customer_lifetime_value
        FROM stg_customers c LEFT JOIN orders o USING (customer_id)
        GROUP BY ALL ORDER BY c.customer_id;
      CHECKPOINT;`)
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
  renameSync(temp, path)
}

/**
 * Builds the file unless it exists and is newer than this generator, so a change of the generator rebuilds it
 * and a normal run costs one stat.
 */
export async function ensureNaoLayoutDatabase(path: string): Promise<void> {
  const generator = new URL(import.meta.url).pathname
  if (existsSync(path) && statSync(path).mtimeMs >= statSync(generator).mtimeMs) return
  await buildNaoLayoutDatabase(path)
}
