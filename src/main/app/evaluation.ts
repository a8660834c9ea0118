import { lastSqlResult } from '../eval/last-sql-result'
import { runEvaluation } from '../eval/run-evaluation'
import { createSqlRunner, projectDatabasePath } from '../eval/run-sql'
import type { Store } from '../store'
import type { PushEvent, TestReport } from '../../shared/api'
import type { ProjectSession } from './project-session'

// The Tests panel and `glassbox test`: each case is a real chat run in test mode through the same path as
// any question (so its prompts and tool calls are stored and can be drilled into), compared with the
// expected SQL's result on the project's database.

export interface RunProjectTestsInput {
  store: Store
  session: ProjectSession
  names?: string[]
  push: (event: PushEvent) => void
  /** Asks in a new test-mode chat and resolves with the run id once the run has ended. */
  askInTestMode: (title: string, prompt: string) => Promise<string>
}

export async function runProjectTests(input: RunProjectTestsInput): Promise<TestReport> {
  const { store, session } = input
  const root = session.snapshot().root
  const dbPath = projectDatabasePath(root)
  const sql = dbPath ? createSqlRunner(dbPath) : null
  const testRunId = store.testRuns.start(session.projectId)
  try {
    const report = await runEvaluation({
      root,
      names: input.names,
      runSql: async (query) => {
        if (!sql) throw new Error('nao_config.yaml declares no local DuckDB or SQLite file to run the expected SQL on')
        return sql.run(query)
      },
      ask: async (prompt, testCase) => {
        const runId = await input.askInTestMode(`Test: ${testCase.name}`, prompt)
        const run = store.runs.get(runId)
        if (run.status === 'failed') throw new Error(store.runs.getRecord(runId).error ?? 'the run failed')
        const usage = run.usage ?? { inputTokens: 0, outputTokens: 0 }
        return { runId, lastSql: lastSqlResult(store.runs.toolCalls(runId)), tokens: usage.inputTokens + usage.outputTokens }
      },
      onResult: (result) => {
        store.testRuns.addResult(testRunId, result)
        input.push({ channel: 'test-progress', result })
      }
    })
    return report
  } finally {
    store.testRuns.finish(testRunId)
    sql?.close()
  }
}
