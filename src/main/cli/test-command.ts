import { parseArgs } from 'node:util'
import type { TestCaseResult } from '../../shared/api'
import type { CliIo } from '../cli'
import { createEvalAsk, type EvalAskHandle, type EvalAskOptions } from '../eval/agent-ask'
import { runEvaluation } from '../eval/run-evaluation'
import { createSqlRunner, projectDatabasePath } from '../eval/run-sql'
import { loadTestCases } from '../eval/test-cases'
import { CliError } from './cli-error'
import { projectDir } from './sync-command'

// `glassbox test --project DIR [--endpoint URL] [--model NAME] [--json]`: runs tests/*.yml in test mode.
// Human output: one line per case as it finishes, then a summary. --json: the report as one object.
// Exit code 0 only when every case passed.

const DEFAULT_ENDPOINT = 'http://127.0.0.1:11434/v1'

export interface TestCommandDeps {
  createAsk: (options: EvalAskOptions) => Promise<EvalAskHandle>
}

export function run(argv: string[], io: CliIo): Promise<number> {
  return runTestCommand(argv, io, { createAsk: createEvalAsk })
}

export async function runTestCommand(argv: string[], io: CliIo, deps: TestCommandDeps): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { project: { type: 'string' }, endpoint: { type: 'string' }, model: { type: 'string' }, json: { type: 'boolean' } },
    strict: true
  })
  const root = projectDir(values.project)
  const cases = await loadTestCases(root)
  if (cases.length === 0) throw new CliError(`no test cases: ${root}/tests/ has no .yml files`)
  const databasePath = projectDatabasePath(root)
  const sql = databasePath ? createSqlRunner(databasePath) : null
  const endpoint = values.endpoint ?? process.env.GLASSBOX_ENDPOINT ?? DEFAULT_ENDPOINT
  let agent: EvalAskHandle
  try {
    agent = await deps.createAsk({ root, endpoint, model: values.model })
  } catch (error) {
    sql?.close()
    throw new CliError(error instanceof Error ? error.message : String(error))
  }
  try {
    const report = await runEvaluation({
      root,
      cases,
      ask: agent.ask,
      runSql: async (query) => {
        if (!sql) throw new Error('nao_config.yaml declares no DuckDB or SQLite database file to run it on')
        return sql.run(query)
      },
      onResult: values.json ? undefined : (result) => io.stdout(resultLine(result))
    })
    if (values.json) {
      const cases = report.cases.map(({ name, status, expected, actual, sql: caseSql, runId, ms, tokens, message }) => ({
        name, status, expected, actual, sql: caseSql, runId, ms, tokens, ...(message ? { message } : {})
      }))
      io.stdout(JSON.stringify({ passed: report.passed, failed: report.failed, errored: report.errored, cases }) + '\n')
    } else {
      io.stdout(`${report.passed} passed, ${report.failed} failed, ${report.errored} errored\n`)
    }
    return report.failed + report.errored === 0 ? 0 : 1
  } finally {
    agent.close()
    sql?.close()
  }
}

function resultLine(result: TestCaseResult): string {
  const mark = result.status === 'passed' ? 'PASS' : result.status === 'failed' ? 'FAIL' : 'ERROR'
  const detail = result.message ? `: ${result.message}` : ''
  return `${mark} ${result.name} (${result.ms} ms, ${result.tokens} tokens)${detail}\n`
}
