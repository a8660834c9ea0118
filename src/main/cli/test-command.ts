import { parseArgs } from 'node:util'
import type { TestCaseResult } from '../../shared/api'
import type { CliIo } from '../cli'
import { createGlassbox } from '../app/create-glassbox'
import { loadTestCases } from '../eval/test-cases'
import { CliError } from './cli-error'
import { requireProject, withGlassbox } from './options'

// `glassbox test --project DIR [--endpoint URL] [--model NAME] [--data-dir DIR] [--json]`: runs tests/*.yml in
// test mode through the same services as the app's Tests panel, so every case's run and prompts are stored.
// Human output: one line per case as it finishes, then a summary. --json: the report as one object.
// Exit code 0 only when every case passed.

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      project: { type: 'string' },
      endpoint: { type: 'string' },
      model: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false }
    },
    strict: true
  })
  const root = requireProject(values.project)
  if ((await loadTestCases(root)).length === 0) throw new CliError(`no test cases: ${root}/tests/ has no .yml files`)
  const opening = createGlassbox({
    dataDir: values['data-dir'],
    projectPath: root,
    endpoint: values.endpoint ?? process.env.GLASSBOX_ENDPOINT,
    model: values.model,
    watch: false,
    extractMemories: false
  })
  return withGlassbox(opening, async (glassbox) => {
    if (!values.json) glassbox.subscribe((event) => event.channel === 'test-progress' && io.stdout(resultLine(event.result)))
    const report = await glassbox.runTests({})
    if (values.json) io.stdout(JSON.stringify(report) + '\n')
    else io.stdout(`${report.passed} passed, ${report.failed} failed, ${report.errored} errored\n`)
    return report.failed + report.errored === 0 ? 0 : 1
  })
}

function resultLine(result: TestCaseResult): string {
  const mark = result.status === 'passed' ? 'PASS' : result.status === 'failed' ? 'FAIL' : 'ERROR'
  const detail = result.message ? `: ${result.message}` : ''
  return `${mark} ${result.name} (${result.ms} ms, ${result.tokens} tokens)${detail}\n`
}
