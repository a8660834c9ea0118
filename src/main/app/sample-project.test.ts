import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type Turn } from '../../../test/support/scripted-openai-server'
import { loadTestCases, isBroken } from '../eval/test-cases'
import { createGlassbox, type Glassbox } from './create-glassbox'

// The sample project a new user gets: its ten evaluation cases pass when the model answers right, through the
// same operation the Tests panel and `glassbox test` call.

const SAMPLE_PROJECT = join(REPO_ROOT, 'resources', 'sample-project')

// The model's own answer to each case's question: written here, not taken from the case files, so each case
// compares what the expected SQL returns with what another query returns.
const ANSWERS: Record<string, string> = {
  'How many customers do we have?': 'SELECT count(customer_id) AS n FROM customers',
  'What is our total revenue (all payments received)?': 'SELECT sum(p.amount) FROM payments AS p',
  'How many products are in the Coffee category?': "SELECT count(*) FROM products WHERE lower(category) = 'coffee'",
  'How many completed orders were placed in 2024?': "SELECT count(*) FROM orders WHERE status = 'completed' AND year(order_date) = 2024",
  'What is the total revenue per region? Give the region name and the revenue.':
    'SELECT regions.name, sum(payments.amount) FROM regions JOIN customers USING (region_id) JOIN orders USING (customer_id) JOIN payments USING (order_id) GROUP BY regions.name ORDER BY 2',
  'How many orders were placed in each month of the first quarter of 2024? One row per month, in order.':
    "SELECT date_trunc('month', order_date) AS m, count(*) FROM orders WHERE order_date BETWEEN DATE '2024-01-01' AND DATE '2024-03-31' GROUP BY m ORDER BY m",
  'What fraction of all orders were returned? Give it as a ratio between 0 and 1.': "SELECT avg(CASE WHEN status = 'returned' THEN 1 ELSE 0 END) FROM orders",
  'What is the average order value (revenue per paid order) for each customer segment?':
    'SELECT segment, sum(amount) / count(*) FROM customers JOIN orders USING (customer_id) JOIN payments USING (order_id) GROUP BY segment ORDER BY segment DESC',
  'Which 5 products had the highest sales in 2024 (quantity × unit price after discount, orders not cancelled)? Product name and sales, highest first.':
    "SELECT products.name, sum(order_items.quantity * order_items.unit_price - order_items.quantity * order_items.unit_price * order_items.discount) AS total FROM order_items JOIN orders USING (order_id) JOIN products USING (product_id) WHERE status != 'cancelled' AND year(order_date) = 2024 GROUP BY products.name ORDER BY total DESC LIMIT 5",
  'How many customers placed more than 3 completed orders in 2024?':
    "WITH per_customer AS (SELECT customer_id, count(*) AS n FROM orders WHERE status = 'completed' AND year(order_date) = 2024 GROUP BY customer_id) SELECT count(*) FROM per_customer WHERE n >= 4"
}

let server: ScriptedServer | undefined
let glassbox: Glassbox | undefined
const temp = makeTempDir()
afterEach(async () => {
  await glassbox?.close()
  await server?.close()
  temp.cleanup()
})

/** A model that answers each known question with its SQL, then says it is done. */
function modelFor(answers: Record<string, string>): (request: RecordedRequest) => Turn {
  return (request) => {
    const text = JSON.stringify(request.body)
    if (text.includes('"role":"tool"')) return { text: 'Done: the result is in the table above.' }
    const question = Object.keys(answers).find((candidate) => text.includes(JSON.stringify(candidate).slice(1, -1)))
    if (!question) return { text: 'I do not know this question.' }
    return { toolCalls: [{ name: 'execute_sql', args: { sql_query: answers[question] } }] }
  }
}

async function evaluate(answers: Record<string, string>) {
  server = await startScriptedServer({ script: modelFor(answers) })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: SAMPLE_PROJECT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  const detail = await glassbox.runEvaluation({})
  expect(detail.runs).toHaveLength(1)
  return detail.runs[0]
}

it('passes all ten evaluation cases of the sample project against a model that answers right', async () => {
  const run = await evaluate(ANSWERS)
  expect(run.cases.map((testCase) => [testCase.name, testCase.outcome])).toEqual([
    ['customer_count', 'passed'],
    ['total_revenue', 'passed'],
    ['coffee_products', 'passed'],
    ['completed_orders_2024', 'passed'],
    ['revenue_by_region', 'passed'],
    ['orders_per_month_q1_2024', 'passed'],
    ['return_rate', 'passed'],
    ['average_order_value_by_segment', 'passed'],
    ['top_5_products_2024', 'passed'],
    ['loyal_customers_2024', 'passed']
  ])
  expect({ passed: run.passed, failed: run.failed, errored: run.errored }).toEqual({ passed: 10, failed: 0, errored: 0 })
}, 60_000)

it('fails the one case the model answers wrong', async () => {
  const run = await evaluate({ ...ANSWERS, 'How many customers placed more than 3 completed orders in 2024?': "SELECT count(DISTINCT customer_id) FROM orders WHERE status = 'completed'" })
  expect(run.cases.filter((testCase) => testCase.outcome !== 'passed').map((testCase) => [testCase.name, testCase.outcome])).toEqual([['loyal_customers_2024', 'failed: wrong result']])
  expect({ passed: run.passed, failed: run.failed, errored: run.errored }).toEqual({ passed: 9, failed: 1, errored: 0 })
}, 60_000)

/** For each sample case, another correct query than the case's own: aliases, columns reordered, an extra column, another order, a cast. */
const REWRITES: Record<string, string> = {
  customer_count: 'SELECT COUNT(customer_id) AS n FROM customers',
  total_revenue: 'SELECT CAST(SUM(amount) AS DOUBLE) AS total, COUNT(*) AS payments FROM payments',
  coffee_products: "SELECT COUNT(*) FROM products WHERE category IN ('Coffee')",
  completed_orders_2024: "SELECT COUNT(*) FROM orders WHERE status = 'completed' AND year(order_date) = 2024",
  revenue_by_region:
    'SELECT SUM(p.amount) AS revenue, r.name FROM payments p JOIN orders o USING (order_id) JOIN customers c ON c.customer_id = o.customer_id JOIN regions r ON r.region_id = c.region_id GROUP BY r.name ORDER BY revenue DESC',
  orders_per_month_q1_2024: "SELECT CAST(date_trunc('month', order_date) AS DATE) AS m, COUNT(*) AS n FROM orders WHERE order_date BETWEEN DATE '2024-01-01' AND DATE '2024-03-31' GROUP BY 1 ORDER BY m",
  return_rate: "SELECT AVG(CASE WHEN status = 'returned' THEN 1 ELSE 0 END) AS rate FROM orders",
  average_order_value_by_segment: 'SELECT AVG(p.amount) AS aov, c.segment FROM customers c JOIN orders o ON o.customer_id = c.customer_id JOIN payments p ON p.order_id = o.order_id GROUP BY c.segment',
  top_5_products_2024:
    "SELECT SUM(oi.quantity * oi.unit_price * (1 - oi.discount)) AS s, pr.name, COUNT(*) AS lines FROM order_items oi JOIN orders o ON o.order_id = oi.order_id JOIN products pr ON pr.product_id = oi.product_id WHERE o.status != 'cancelled' AND year(o.order_date) = 2024 GROUP BY pr.name ORDER BY s DESC LIMIT 5",
  loyal_customers_2024:
    "SELECT COUNT(*) FROM (SELECT customer_id FROM orders WHERE status = 'completed' AND order_date BETWEEN DATE '2024-01-01' AND DATE '2024-12-31' GROUP BY customer_id HAVING COUNT(*) >= 4) t"
}

it('passes every sample case against an oracle that answers with another correct query, each verdict naming its rule', async () => {
  const cases = (await loadTestCases(SAMPLE_PROJECT)).filter((testCase) => !isBroken(testCase))
  expect(cases.map((testCase) => testCase.name).sort()).toEqual(Object.keys(REWRITES).sort())
  const run = await evaluate(Object.fromEntries(cases.flatMap((testCase) => (isBroken(testCase) ? [] : [[testCase.prompt, REWRITES[testCase.name]]]))))
  expect(run.cases.filter((testCase) => testCase.outcome !== 'passed').map((testCase) => [testCase.name, testCase.outcome])).toEqual([])
  const verdicts = Object.fromEntries(run.cases.map((testCase) => [testCase.name, testCase.verdict]))
  expect(verdicts.total_revenue).toBe('passed: same rows in any order (the question asks for none); extra column payments ignored; numeric text read as numbers; both ran on shop')
  expect(verdicts.orders_per_month_q1_2024).toMatch(/^passed: same rows in the same order \(the question asks “in order”\); .*a date equals its midnight timestamp; both ran on shop$/)
  expect(verdicts.top_5_products_2024).toMatch(/^passed: same rows in the same order \(the question asks “highest first”\); columns matched by content in another order; extra column lines ignored/)
}, 60_000)
