import type { ApiInputs, GlassboxApi } from '../../shared/api'
import type { PromptPreview } from '../../shared/prompt'
import type { EvalModel } from '../eval/run-evaluation'
import type { Store } from '../store'
import type { StartedRun } from './chat-runs'
import type { ProjectSession } from './project-session'

// The services behind the API contract as the desktop app, web mode, the CLI and the doctor see them; built
// by createGlassbox. A module of its own so that what uses a Glassbox need not import what builds one.

export interface Glassbox extends GlassboxApi {
  readonly store: Store
  /** The open project, or an error that says how to open one. */
  session(): ProjectSession
  /** Resolves when the run has ended and everything about it is stored. */
  waitForRun(runId: string): Promise<void>
  /** sendMessage for the command line and tests: may force test mode and hands back the run's completion. */
  send(input: { chatId: string; text: string; testMode?: boolean; model?: EvalModel }): Promise<StartedRun>
  /** previewPrompt with what the command line can pin besides. */
  preview(input: PreviewOptions): Promise<PromptPreview>
  close(): Promise<void>
}

export type PreviewOptions = ApiInputs['previewPrompt'] & {
  channel?: string | null
  timezone?: string
  now?: Date
  forkSelection?: string
  /** Ask the model server for its window before assembling (the command line); the app previews instantly. */
  resolveModel?: boolean
  /** Preview for this model instead of the configured one (the doctor checks each server it is given). */
  model?: EvalModel
}
