// The hand-written files of the sample project (resources/sample-project/). The database and its
// databases/ context folder are generated; these texts explain them to the agent and to the person.

export const SAMPLE_CONFIG = `project_name: sample-shop
databases:
- name: shop
  type: duckdb
  path: ./shop.duckdb
  accessors:
  - columns
  - preview
  - description
  include: []
  exclude: []
`

export const SAMPLE_RULES = `# Rules for the Bean & Leaf shop data

- The database is \`shop.duckdb\` (DuckDB). Tables: regions, customers, products, orders, order_items, payments.
- **Revenue** means money actually received: the sum of \`payments.amount\`. Cancelled orders have no payment.
- **Gross merchandise value** of an order line is \`quantity * unit_price * (1 - discount)\`; \`discount\` is a
  fraction (0.10 = 10 %).
- Order statuses: completed, shipped, returned, cancelled. Unless the question says otherwise, count every order.
- Dates: \`orders.order_date\` is the day the order was placed; \`payments.paid_at\` is a timestamp (UTC).
  "In 2024" means \`order_date >= DATE '2024-01-01' AND order_date < DATE '2025-01-01'\`.
- Money columns are DECIMAL; return them unrounded unless asked.
- When a question asks for a ranking, order the result and say which column it is ordered by.
`

export const SAMPLE_SKILLS: Record<string, string> = {
  'revenue.md': `---
name: revenue
description: How to compute revenue, order value and product sales correctly in the shop data.
---
# Revenue and order value

1. Revenue = \`SUM(payments.amount)\`. Join payments to orders on \`order_id\` when you need order attributes.
2. Product sales come from order_items: \`SUM(quantity * unit_price * (1 - discount))\`.
3. Average order value = revenue divided by the number of paid orders (orders that have a payment).
4. Exclude cancelled orders only when the question asks for sales or revenue of products; payments already do.
5. Before answering, run the query and quote the exact figure it returns.
`,
  'date-ranges.md': `---
name: date-ranges
description: Filtering and grouping by day, month and quarter with DuckDB date functions.
---
# Date ranges in DuckDB

- Use half-open ranges: \`order_date >= DATE '2024-01-01' AND order_date < DATE '2024-04-01'\` for Q1 2024.
- Group by month with \`date_trunc('month', order_date)\`; it returns a DATE on the first of the month.
- Quarter: \`date_part('quarter', order_date)\`; year: \`date_part('year', order_date)\`.
- \`payments.paid_at\` is a TIMESTAMP: cast with \`paid_at::DATE\` before comparing with dates.
`
}

export const SAMPLE_SYSTEM_PROMPT = `{{ nao_prompt }}

## House style for the Bean & Leaf shop

- Answer in one or two sentences first, then show the SQL you ran.
- Money is in US dollars: write amounts with two decimals and a $ sign.
- If a question is ambiguous (e.g. "sales" could mean revenue or items sold), ask before querying.
`

export interface SampleTestCase {
  file: string
  name: string
  prompt: string
  sql: string
}

/** Evaluation cases, from a simple count to a top-N ranking over joins. */
export const SAMPLE_TESTS: SampleTestCase[] = [
  {
    file: '01_customer_count.yml',
    name: 'customer_count',
    prompt: 'How many customers do we have?',
    sql: 'SELECT COUNT(*) AS customers FROM customers'
  },
  {
    file: '02_total_revenue.yml',
    name: 'total_revenue',
    prompt: 'What is our total revenue (all payments received)?',
    sql: 'SELECT SUM(amount) AS revenue FROM payments'
  },
  {
    file: '03_coffee_products.yml',
    name: 'coffee_products',
    prompt: 'How many products are in the Coffee category?',
    sql: "SELECT COUNT(*) AS products FROM products WHERE category = 'Coffee'"
  },
  {
    file: '04_completed_orders_2024.yml',
    name: 'completed_orders_2024',
    prompt: 'How many completed orders were placed in 2024?',
    sql: `SELECT COUNT(*) AS orders
FROM orders
WHERE status = 'completed'
  AND order_date >= DATE '2024-01-01' AND order_date < DATE '2025-01-01'`
  },
  {
    file: '05_revenue_by_region.yml',
    name: 'revenue_by_region',
    prompt: 'What is the total revenue per region? Give the region name and the revenue.',
    sql: `SELECT r.name AS region, SUM(p.amount) AS revenue
FROM payments p
JOIN orders o ON o.order_id = p.order_id
JOIN customers c ON c.customer_id = o.customer_id
JOIN regions r ON r.region_id = c.region_id
GROUP BY r.name`
  },
  {
    file: '06_orders_per_month_q1_2024.yml',
    name: 'orders_per_month_q1_2024',
    prompt: 'How many orders were placed in each month of the first quarter of 2024? One row per month, in order.',
    sql: `SELECT date_trunc('month', order_date) AS month, COUNT(*) AS orders
FROM orders
WHERE order_date >= DATE '2024-01-01' AND order_date < DATE '2024-04-01'
GROUP BY 1
ORDER BY 1`
  },
  {
    file: '07_return_rate.yml',
    name: 'return_rate',
    prompt: 'What fraction of all orders were returned? Give it as a ratio between 0 and 1.',
    sql: `SELECT COUNT(*) FILTER (WHERE status = 'returned') / COUNT(*) AS return_rate
FROM orders`
  },
  {
    file: '08_average_order_value_by_segment.yml',
    name: 'average_order_value_by_segment',
    prompt: 'What is the average order value (revenue per paid order) for each customer segment?',
    sql: `SELECT c.segment, AVG(p.amount) AS average_order_value
FROM payments p
JOIN orders o ON o.order_id = p.order_id
JOIN customers c ON c.customer_id = o.customer_id
GROUP BY c.segment`
  },
  {
    file: '09_top_5_products_2024.yml',
    name: 'top_5_products_2024',
    prompt:
      'Which 5 products had the highest sales in 2024 (quantity × unit price after discount, orders not cancelled)? Product name and sales, highest first.',
    sql: `SELECT pr.name AS product, SUM(oi.quantity * oi.unit_price * (1 - oi.discount)) AS sales
FROM order_items oi
JOIN orders o ON o.order_id = oi.order_id
JOIN products pr ON pr.product_id = oi.product_id
WHERE o.status <> 'cancelled'
  AND o.order_date >= DATE '2024-01-01' AND o.order_date < DATE '2025-01-01'
GROUP BY pr.name
ORDER BY sales DESC
LIMIT 5`
  },
  {
    file: '10_loyal_customers_2024.yml',
    name: 'loyal_customers_2024',
    prompt: 'How many customers placed more than 3 completed orders in 2024?',
    sql: `SELECT COUNT(*) AS customers
FROM (
  SELECT customer_id
  FROM orders
  WHERE status = 'completed'
    AND order_date >= DATE '2024-01-01' AND order_date < DATE '2025-01-01'
  GROUP BY customer_id
  HAVING COUNT(*) > 3
) loyal`
  }
]
