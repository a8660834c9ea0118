import { appendFileSync, cpSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { makeTempDir, REPO_ROOT } from './fixtures'
import { bodyOf, latestTurn, startScriptedServer, type RecordedRequest, type ScriptedServer, type Turn } from './scripted-openai-server'

// The evaluation scenario of issue #15: a copy of the sample project with four cases, and one scripted
// server serving two models. `all` runs the right SQL for every case; `half` for two of them only — for the
// other two it reads orders' description.md (never its columns.md) and counts orders instead, unless the
// system prompt carries RULE (added to RULES.md by `addRule`), which fixes it. A third model, `slow`, hangs.

export const SAMPLE_PROJECT = join(REPO_ROOT, 'resources/sample-project')
export const CASE_FILES = ['01_customer_count.yml', '02_total_revenue.yml', '03_coffee_products.yml', '07_return_rate.yml']
export const RULE = '- Before querying a table, read its columns.md.'
const ORDERS_DIR = 'databases/type=duckdb/database=shop/schema=main/table=orders'

const RIGHT: Record<string, string> = {
  'How many customers do we have?': 'SELECT COUNT(*) AS customers FROM customers',
  'What is our total revenue (all payments received)?': 'SELECT SUM(amount) AS revenue FROM payments',
  'How many products are in the Coffee category?': "SELECT COUNT(*) AS products FROM products WHERE category = 'Coffee'",
  'What fraction of all orders were returned? Give it as a ratio between 0 and 1.':
    "SELECT COUNT(*) FILTER (WHERE status = 'returned') / COUNT(*) AS return_rate FROM orders"
}
/** What `half` gets wrong without the rule. */
const WRONG: Record<string, string> = {
  'What is our total revenue (all payments received)?': 'SELECT COUNT(*) AS revenue FROM orders',
  'What fraction of all orders were returned? Give it as a ratio between 0 and 1.': "SELECT COUNT(*) FILTER (WHERE status = 'returned') AS return_rate FROM orders"
}

export function evaluationProject(): { dir: string; cleanup: () => void; addRule: () => void } {
  const temp = makeTempDir('glassbox-eval-project-')
  const dir = join(temp.dir, 'shop')
  cpSync(SAMPLE_PROJECT, dir, { recursive: true })
  for (const file of readdirSync(join(dir, 'tests'))) if (!CASE_FILES.includes(file)) rmSync(join(dir, 'tests', file))
  return { dir, cleanup: temp.cleanup, addRule: () => appendFileSync(join(dir, 'RULES.md'), `${RULE}\n`) }
}

function modelOf(request: RecordedRequest): string {
  return String(bodyOf(request).model ?? '')
}

export function twoModelScript(request: RecordedRequest): Turn {
  // `slow` never answers (until the client goes away): for cancelling.
  if (modelOf(request) === 'slow') return { fault: 'hang' }
  const { question: asked, toolResults, system } = latestTurn(request)
  const question = Object.keys(RIGHT).find((candidate) => asked.includes(candidate))
  if (!question) return { text: 'I cannot tell which question this is.' }
  const done = toolResults.length
  const wrong = modelOf(request) === 'half' && WRONG[question] && !system.includes(RULE.slice(2))
  if (!wrong) return done === 0 ? { toolCalls: [{ name: 'execute_sql', args: { sql_query: RIGHT[question] } }] } : { text: 'Done: the answer is in the result.' }
  if (done === 0) return { toolCalls: [{ name: 'read', args: { file_path: `${ORDERS_DIR}/description.md` } }] }
  if (done === 1) return { toolCalls: [{ name: 'execute_sql', args: { sql_query: WRONG[question] } }] }
  return { text: 'Done: the answer is in the result.' }
}

export function startTwoModelServer(): Promise<ScriptedServer> {
  return startScriptedServer({ script: twoModelScript, models: [{ id: 'half' }, { id: 'all' }, { id: 'slow' }] })
}
