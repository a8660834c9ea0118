import { createGlassbox } from '../src/main/app/create-glassbox'
import type { RequestMessage } from '../src/shared/prompt'
import { runAgent } from '../src/main/agent/run-agent'
import { createDatabasePool } from '../src/main/agent/sql/database-pool'
import { createQueryStore } from '../src/main/agent/sql/query-store'
import { createAgentTools, DEFAULT_TOOL_LIMITS } from '../src/main/agent/tools'
import { loadProject } from '../src/main/project/load'
import { makeTempDir, NAO_LAYOUT } from '../test/support/fixtures'
import { startScriptedServer } from '../test/support/scripted-openai-server'
import { percentile, withFloor, type Figure } from './harness'

// agent/round-overhead: one model round through runAgent (text answer, tools bound) against the raw HTTP
// exchange with the same scripted server (floor http/raw-round). agent/message-to-request: from a user
// message on the loaded nao-layout fixture to the request arriving at the scripted server.

const TURN = { text: 'Total revenue is 1734.', chunkSize: 8, usage: { prompt_tokens: 1_000, completion_tokens: 8 } }

export async function* figures(): AsyncIterable<Figure> {
  let receivedAt = 0
  const server = await startScriptedServer({
    script: () => {
      receivedAt = performance.now()
      return TURN
    }
  })
  const project = await loadProject(NAO_LAYOUT)
  const databases = createDatabasePool(project, project.files)
  const tools = createAgentTools()
  const messages: RequestMessage[] = [
    { role: 'system', content: 'You are a data analyst.' },
    { role: 'user', content: 'What is the total revenue?' }
  ]
  const requestBody = JSON.stringify({
    model: 'scripted-model',
    stream: true,
    stream_options: { include_usage: true },
    messages,
    tools: tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }))
  })
  try {
    const rawRound = async (): Promise<void> => {
      const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: requestBody })
      await response.text()
    }
    const signal = new AbortController().signal
    const agentRound = async (): Promise<void> => {
      await runAgent({
        endpoint: { baseUrl: server.url, model: 'scripted-model' },
        messages,
        tools,
        toolContext: {
          project,
          signal,
          runId: 'bench',
          databases,
          queryStore: createQueryStore(),
          readAgentResult: async () => null,
          readToolResult: async () => null,
          limits: DEFAULT_TOOL_LIMITS
        },
        signal,
        onEvent: () => undefined,
        runId: 'bench'
      })
    }
    // Interleaved, so a busy machine slows the floor and the figure alike.
    const { figure: round, floor } = await measurePaired('agent/round-overhead', agentRound, 'http/raw-round', rawRound, 150)
    yield withFloor(round, floor)

    // The app's own path: store the message, select memory, assemble and fit the prompt, store the run.
    const data = makeTempDir()
    const glassbox = await createGlassbox({ dataDir: data.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', extractMemories: false })
    try {
      const samples: number[] = []
      for (let i = 0; i < 60; i++) {
        const chat = await glassbox.createChat({})
        const started = performance.now()
        const { done } = await glassbox.send({ chatId: chat.id, text: 'What is the total revenue?' })
        await done
        if (i >= 10) samples.push(receivedAt - started)
      }
      yield summarise('agent/message-to-request', samples)
    } finally {
      await glassbox.close()
      data.cleanup()
    }
  } finally {
    databases.close()
    await server.close()
  }
}

async function measurePaired(
  name: string,
  run: () => Promise<void>,
  floorName: string,
  runFloor: () => Promise<void>,
  n: number
): Promise<{ figure: Figure; floor: Figure }> {
  for (let i = 0; i < 10; i++) {
    await runFloor()
    await run()
  }
  const samples: number[] = []
  const floorSamples: number[] = []
  for (let i = 0; i < n; i++) {
    let started = performance.now()
    await runFloor()
    floorSamples.push(performance.now() - started)
    started = performance.now()
    await run()
    samples.push(performance.now() - started)
  }
  return { figure: summarise(name, samples), floor: summarise(floorName, floorSamples) }
}

function summarise(name: string, samples: number[]): Figure {
  const sorted = [...samples].sort((a, b) => a - b)
  const round4 = (ms: number): number => Math.round(ms * 10_000) / 10_000
  return { name, median_ms: round4(percentile(sorted, 50)), p95_ms: round4(percentile(sorted, 95)), n: sorted.length }
}
