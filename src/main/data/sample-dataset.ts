import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { quoteLiteral } from '../engines/catalog'
import { seededRandom } from '../seeded-random'

// The sample project's database: a small coffee-and-tea shop (regions, customers, products, orders, order
// items, payments) drawn from a seeded generator, so the file has the same rows every time it is made.

export const SAMPLE_SEED = 20_240_601

export const SAMPLE_TABLES = ['regions', 'customers', 'products', 'orders', 'order_items', 'payments'] as const

type Cell = string | number | boolean | null

const REGIONS = [
  ['North America', 'Dana Whitfield'],
  ['Europe', 'Lukas Brenner'],
  ['Asia Pacific', 'Mei Tanaka'],
  ['Latin America', 'Sofia Ramos'],
  ['Middle East & Africa', 'Amara Okafor'],
  ['Nordics', 'Erik Lindqvist']
]
const FIRST_NAMES = ['Ada', 'Ben', 'Chloe', 'Diego', 'Elif', 'Femi', 'Grace', 'Hugo', 'Iris', 'Jonas', 'Kira', 'Liam', 'Maya', 'Noah', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tara', 'Uma', 'Victor', 'Wen', 'Yusuf', 'Zoe']
const LAST_NAMES = ['Adams', 'Berg', 'Costa', 'Dubois', 'Evans', 'Fischer', 'Garcia', 'Hansen', 'Ito', 'Jensen', 'Kowalski', 'Lopez', 'Moreau', 'Nguyen', 'Okafor', 'Patel', 'Rossi', 'Silva', 'Tanaka', 'Weber']
const SEGMENTS: [string, number][] = [['consumer', 0.7], ['small_business', 0.22], ['enterprise', 0.08]]
const CATEGORIES: [string, string[], number, number][] = [
  ['Coffee', ['Espresso Blend', 'Ethiopia Yirgacheffe', 'Colombia Huila', 'Decaf House', 'Sumatra Dark', 'Kenya AA', 'Guatemala Antigua', 'Brazil Santos', 'Cold Brew Pack', 'Holiday Roast'], 9, 24],
  ['Tea', ['Sencha', 'Assam Breakfast', 'Earl Grey', 'Chamomile', 'Jasmine Pearls', 'Rooibos', 'Matcha Ceremonial', 'Chai Masala', 'Oolong Tieguanyin'], 6, 32],
  ['Equipment', ['Pour-over Dripper', 'Burr Grinder', 'Gooseneck Kettle', 'French Press', 'Espresso Tamper', 'Milk Frother', 'Digital Scale', 'Cold Brew Jar'], 18, 160],
  ['Accessories', ['Travel Mug', 'Paper Filters (100)', 'Ceramic Cup', 'Tea Infuser', 'Cleaning Tablets', 'Canister', 'Gift Card Sleeve', 'Tote Bag'], 4, 28],
  ['Snacks', ['Almond Biscotti', 'Dark Chocolate Bar', 'Oat Cookies', 'Shortbread Tin', 'Candied Ginger', 'Granola Bites'], 3, 12]
]
const STATUSES: [string, number][] = [['completed', 0.84], ['returned', 0.06], ['cancelled', 0.05], ['shipped', 0.05]]
const CHANNELS: [string, number][] = [['web', 0.55], ['mobile', 0.3], ['store', 0.15]]
const METHODS: [string, number][] = [['card', 0.6], ['paypal', 0.2], ['bank_transfer', 0.12], ['gift_card', 0.08]]

const DAY_MS = 86_400_000
const isoDay = (day: number): string => new Date(Date.UTC(2022, 0, 1) + day * DAY_MS).toISOString().slice(0, 10)
/** Days from 2022-01-01. */
const dayOf = (iso: string): number => (Date.parse(`${iso}T00:00:00Z`) - Date.UTC(2022, 0, 1)) / DAY_MS

/** Builds the sample DuckDB file at `path` (which must not exist yet). */
export async function buildSampleDatabase(path: string, seed = SAMPLE_SEED): Promise<void> {
  const random = seededRandom(seed)
  const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1))
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
  const weighted = (choices: [string, number][]): string => {
    let roll = random()
    for (const [value, weight] of choices) if ((roll -= weight) < 0) return value
    return choices[choices.length - 1][0]
  }
  const cents = (amount: number): number => Math.round(amount * 100) / 100

  const regions: Cell[][] = REGIONS.map(([name, manager], i) => [i + 1, name, manager])
  const customers: Cell[][] = []
  for (let id = 1; id <= 500; id++) {
    const first = pick(FIRST_NAMES)
    const last = pick(LAST_NAMES)
    const signup = int(0, dayOf('2024-09-30'))
    customers.push([id, first, last, `${first}.${last}${id}@example.com`.toLowerCase(), int(1, REGIONS.length), weighted(SEGMENTS), isoDay(signup)])
  }
  const products: Cell[][] = []
  for (const [category, names, low, high] of CATEGORIES) {
    for (const name of names) products.push([products.length + 1, name, category, cents(low + random() * (high - low)), random() > 0.1])
  }
  const orders: Cell[][] = []
  const items: Cell[][] = []
  const payments: Cell[][] = []
  const firstOrderDay = dayOf('2023-01-01')
  const lastOrderDay = dayOf('2024-12-31')
  // Order ids follow the order date, as they would in a real shop.
  const placed = Array.from({ length: 3_000 }, () => {
    const customer = customers[int(0, customers.length - 1)]
    return { customerId: customer[0], day: int(Math.max(firstOrderDay, dayOf(String(customer[6]))), lastOrderDay) }
  }).sort((a, b) => a.day - b.day)
  for (const [index, { customerId, day }] of placed.entries()) {
    const id = index + 1
    const status = weighted(STATUSES)
    orders.push([id, customerId, isoDay(day), status, weighted(CHANNELS)])
    let total = 0
    for (let line = int(1, 4); line > 0; line--) {
      const product = pick(products)
      const quantity = int(1, 5)
      const discount = random() < 0.2 ? pick([0.05, 0.1, 0.15, 0.25]) : 0
      const price = Number(product[3])
      items.push([items.length + 1, id, product[0], quantity, price, discount])
      total += cents(quantity * price * (1 - discount))
    }
    if (status !== 'cancelled') {
      const paidAt = new Date(Date.UTC(2022, 0, 1) + day * DAY_MS + int(6 * 3600, 22 * 3600) * 1000)
      payments.push([payments.length + 1, id, weighted(METHODS), cents(total), paidAt.toISOString().slice(0, 19).replace('T', ' ')])
    }
  }

  const instance = await DuckDBInstance.create(path)
  const connection = await instance.connect()
  try {
    await connection.run(`
      CREATE TABLE regions (region_id INTEGER, name VARCHAR NOT NULL, manager VARCHAR);
      CREATE TABLE customers (customer_id INTEGER, first_name VARCHAR, last_name VARCHAR, email VARCHAR,
        region_id INTEGER, segment VARCHAR, signup_date DATE);
      CREATE TABLE products (product_id INTEGER, name VARCHAR, category VARCHAR, unit_price DECIMAL(10, 2), active BOOLEAN);
      CREATE TABLE orders (order_id INTEGER, customer_id INTEGER,
        order_date DATE, status VARCHAR, channel VARCHAR);
      CREATE TABLE order_items (order_item_id INTEGER, order_id INTEGER,
        product_id INTEGER, quantity INTEGER, unit_price DECIMAL(10, 2), discount DECIMAL(4, 2));
      CREATE TABLE payments (payment_id INTEGER, order_id INTEGER, method VARCHAR,
        amount DECIMAL(12, 2), paid_at TIMESTAMP);`)
    const rowsByTable: Record<(typeof SAMPLE_TABLES)[number], Cell[][]> = {
      regions,
      customers,
      products,
      orders,
      order_items: items,
      payments
    }
    for (const table of SAMPLE_TABLES) await insertRows(connection, table, rowsByTable[table])
    await connection.run('CHECKPOINT')
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

async function insertRows(connection: DuckDBConnection, table: string, rows: Cell[][]): Promise<void> {
  const literal = (cell: Cell): string =>
    cell === null ? 'NULL' : typeof cell === 'string' ? quoteLiteral(cell) : typeof cell === 'boolean' ? String(cell).toUpperCase() : String(cell)
  for (let start = 0; start < rows.length; start += 1_000) {
    const values = rows.slice(start, start + 1_000).map((row) => `(${row.map(literal).join(', ')})`)
    await connection.run(`INSERT INTO ${table} VALUES ${values.join(',\n')}`)
  }
}
