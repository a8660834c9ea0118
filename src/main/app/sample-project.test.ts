import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { loadTestCases, isBroken } from '../eval/test-cases'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type Turn } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// The sample project a new user gets: its evaluation cases pass when the model runs the right SQL.

const SAMPLE_PROJECT = join(REPO_ROOT, 'resources', 'sample-project')

let server: ScriptedServer | undefined
let glassbox: Glassbox | undefined
const temp = makeTempDir()
afterEach(async () => {
  await glassbox?.close()
  await server?.close()
  temp.cleanup()
})

/** A model that knows each case's answer: it runs the expected SQL, then says it is done. */
function modelFor(sqlByPrompt: Map<string, string>): (request: RecordedRequest) => Turn {
  return (request) => {
    const text = JSON.stringify(request.body)
    if (text.includes('"role":"tool"')) return { text: 'Done: the result is in the table above.' }
    const prompt = [...sqlByPrompt.keys()].find((candidate) => text.includes(JSON.stringify(candidate).slice(1, -1)))
    if (!prompt) return { text: 'I do not know this question.' }
    return { toolCalls: [{ name: 'execute_sql', args: { sql_query: sqlByPrompt.get(prompt) ?? '' } }] }
  }
}

it('passes every evaluation case of the sample project against a model that runs the right SQL', async () => {
  const cases = (await loadTestCases(SAMPLE_PROJECT)).filter((testCase) => !isBroken(testCase))
  expect(cases.length).toBeGreaterThanOrEqual(8)
  const sqlByPrompt = new Map(cases.flatMap((testCase) => (isBroken(testCase) ? [] : [[testCase.prompt, testCase.sql[0]] as const])))
  server = await startScriptedServer({ script: modelFor(sqlByPrompt) })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: SAMPLE_PROJECT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  const report = await glassbox.runTests({})
  expect(report.cases.filter((testCase) => testCase.status !== 'passed')).toEqual([])
  expect(report.passed).toBe(cases.length)
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
  const sqlByPrompt = new Map(cases.flatMap((testCase) => (isBroken(testCase) ? [] : [[testCase.prompt, REWRITES[testCase.name]] as const])))
  server = await startScriptedServer({ script: modelFor(sqlByPrompt) })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: SAMPLE_PROJECT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  const report = await glassbox.runTests({})
  expect(report.cases.filter((testCase) => testCase.status !== 'passed').map((testCase) => [testCase.name, testCase.message])).toEqual([])
  const verdicts = Object.fromEntries(report.cases.map((testCase) => [testCase.name, 'verdict' in testCase ? testCase.verdict : undefined]))
  expect(verdicts.total_revenue).toBe('passed: same rows in any order (the question asks for none); extra column payments ignored; numeric text read as numbers; both ran on shop')
  expect(verdicts.orders_per_month_q1_2024).toMatch(/^passed: same rows in the same order \(the question asks “in order”\); .*a date equals its midnight timestamp; both ran on shop$/)
  expect(verdicts.top_5_products_2024).toMatch(/^passed: same rows in the same order \(the question asks “highest first”\); columns matched by content in another order; extra column lines ignored/)
}, 60_000)

