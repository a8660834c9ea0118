import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { REPO_ROOT } from './fixtures'
import { unusedLoopbackPort } from './free-port'

// A real llama.cpp `llama-server` for tests: found through $LLAMA_SERVER (its `run` script or the binary) or
// ../shared/tools/llama/run beside the repo, with the tiny GGUF models in `models/` beside it (or
// $LLAMA_MODELS). Each server listens on a free loopback port and is killed by the test that started it.

export type TinyModel = 'tiny-steered' | 'tiny-steered-think' | 'tiny-random'

export interface LlamaLocation {
  run: string
  models: string
}

/** Where the server and its models are, or why they were not found. */
export function findLlamaServer(): LlamaLocation | { missing: string } {
  const run = process.env.LLAMA_SERVER ?? resolve(REPO_ROOT, '../shared/tools/llama/run')
  const models = process.env.LLAMA_MODELS ?? join(dirname(run), 'models')
  if (!existsSync(run)) return { missing: `no llama-server at ${run} (set LLAMA_SERVER to its run script or binary)` }
  if (!existsSync(join(models, 'tiny-steered.gguf'))) return { missing: `no tiny GGUF models in ${models} (set LLAMA_MODELS)` }
  return { run, models }
}

export interface RunningLlama {
  /** http://127.0.0.1:PORT/v1 */
  url: string
  /** The model id the server lists (its path). */
  model: string
  process: ChildProcess
  /** Output so far, for failure messages. */
  log: () => string
  stop: () => Promise<void>
}


/**
 * Starts llama-server with `-c 8192 --jinja -t 2` unless `flags` say otherwise, and waits until it is ready.
 * `port`: listen there (a restart on the same address, as a user restarting their server).
 */
export async function startLlamaServer(location: LlamaLocation, model: TinyModel, flags: string[] = ['-c', '8192', '--jinja'], port?: number): Promise<RunningLlama> {
  port ??= await unusedLoopbackPort()
  const modelPath = join(location.models, `${model}.gguf`)
  const child = spawn(location.run, ['-m', modelPath, '--host', '127.0.0.1', '--port', String(port), '-t', '2', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()))
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  }
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited (${child.exitCode}):\n${output}`)
    const ready = await fetch(`${origin}/health`).then((response) => response.ok, () => false)
    if (ready) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`llama-server did not become ready within 30 s:\n${output}`)
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 100))
  }
  return { url: `${origin}/v1`, model: modelPath, process: child, log: () => output, stop }
}
