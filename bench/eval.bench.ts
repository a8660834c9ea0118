import { EvaluationService } from '../src/main/app/evaluation'
import { createGlassbox } from '../src/main/app/create-glassbox'
import { makeTempDir } from '../test/support/fixtures'
import { evaluationProject, startTwoModelServer } from '../test/support/two-model-evaluation'
import { percentile, type Figure } from './harness'

// eval/matrix-overhead: what an evaluation adds per case beyond the model's own run — the evaluation chat,
// the expected SQL, comparing, the context audit, storing the case, progress, the matrix. The real services
// run the 4-case suite for 2 models against a scripted server (half of one model's cases fail, so audits
// run); each agent run is timed from its start to its end, and the figure is the rest, per case.

const ROUNDS = 20

export async function figures(): Promise<Figure[]> {
  const project = evaluationProject()
  const data = makeTempDir('glassbox-bench-eval-')
  const server = await startTwoModelServer()
  const glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: server.url, model: 'all', watch: false, extractMemories: false })
  let runsMs = 0
  const service = new EvaluationService({
    store: glassbox.store,
    session: () => glassbox.session(),
    push: () => undefined,
    startRun: async ({ chatId, prompt, model }) => {
      const started = performance.now()
      const run = await glassbox.send({ chatId, text: prompt, testMode: true, model })
      return { runId: run.runId, done: run.done.finally(() => (runsMs += performance.now() - started)) }
    },
    stopRun: () => undefined,
    onRunEvent: (listener) => glassbox.subscribe((event) => event.channel === 'run' && listener(event.event)),
    systemPrompt: async () => (await glassbox.previewPrompt({ question: '', testMode: true })).system
  })
  const models = [
    { endpoint: server.url, model: 'half' },
    { endpoint: server.url, model: 'all' }
  ]
  try {
    const samples: number[] = []
    for (let round = -2; round < ROUNDS; round++) {
      runsMs = 0
      const started = performance.now()
      const detail = await service.run({ models })
      const totalMs = performance.now() - started
      if (detail.matrix.models.map((model) => model.passRate).join() !== '0.5,1') throw new Error('eval bench: unexpected pass rates')
      const cases = detail.runs.reduce((sum, run) => sum + run.cases.length, 0)
      if (round >= 0) samples.push((totalMs - runsMs) / cases)
    }
    samples.sort((a, b) => a - b)
    const round = (ms: number): number => Math.round(ms * 10_000) / 10_000
    return [{ name: 'eval/matrix-overhead', median_ms: round(percentile(samples, 50)), p95_ms: round(percentile(samples, 95)), n: ROUNDS }]
  } finally {
    service.close()
    await glassbox.close()
    await server.close()
    project.cleanup()
    data.cleanup()
  }
}
