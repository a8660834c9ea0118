import type { AgentTool } from '../agent/tools'
import type { MemorySelection } from '../memory/select'
import type { ProjectSnapshot, Skill } from '../project/types'
import { fitRequest, type FittedRequest } from '../prompt/budget'
import { buildRequestMessages } from '../prompt/request'
import { assembleSystemPrompt, type SystemPromptResult } from '../prompt/system/assemble'
import { countTokens } from '../prompt/tokens'
import { countTokensPiecewise } from '../prompt/token-pieces'
import { buildContextBlock, resolveUserPromptTemplate, userPromptRenderer } from '../prompt/user'
import type { FileMeta, ResultMeta } from '../prompt/user/context-block'
import type { Diagnostic, PromptPreview, RequestMessage } from '../../shared/prompt'

// The one place where the three prompt designs meet: the system prompt (JSX), memory, the user prompt
// (Handlebars over a metadata-only context block) and the budget that fits the whole request into the
// model's window. The inspector preview, every agent run and `prompt --json` all go through here, so what
// the inspector shows is byte for byte what is sent.

export interface PromptModelInfo {
  contextWindow: number
  /** Tokens kept free for the answer. */
  reservedOutput: number
  /** Factor on local token estimates, learned from what the server reported (see TokenCalibration). */
  tokenScale?: number
  hasVision: boolean
  supportsPromptCache: boolean
  /** Where contextWindow came from, in words ("llama.cpp /props n_ctx", "settings", …). */
  contextSource?: string
}

export interface AssemblePromptInput {
  project: ProjectSnapshot
  question: string
  /** Metadata of attached files (see describeAttachment). */
  files: FileMeta[]
  /** Earlier answers the user refers to (the message a chat was forked from). */
  results?: ResultMeta[]
  /** Attached images as data URLs, sent only to a model with vision. */
  images?: string[]
  memory: MemorySelection
  tools: readonly AgentTool[]
  testMode: boolean
  now: Date
  timezone: string
  channel: string | null
  forkSelection: string | null
  runtimeOverride?: string | null
  /** Earlier turns of the chat, oldest first. */
  history: readonly RequestMessage[]
  /** Where archived history can be read back from (`chat:<id>`). */
  archiveSource: string
  model: PromptModelInfo
}

export interface AssembledPrompt {
  preview: PromptPreview
  /** The request messages exactly as sent; empty when there is no question yet. */
  request: RequestMessage[]
  /** Messages moved out of the history to fit the window (stored for read_agent_result). */
  archivedHistory: RequestMessage[]
}

function scaledCounter(scale: number): ((text: string) => number) | undefined {
  return scale === 1 ? undefined : (text) => Math.ceil(countTokensPiecewise(text) * scale)
}

export function toolSchemaTokens(tools: readonly AgentTool[]): number {
  return countTokens(JSON.stringify(tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }))))
}

/** Builds the prompt of one run, fitted to the model's context window (may throw ContextWindowTooSmallError). */
export function assemblePrompt(input: AssemblePromptInput): AssembledPrompt {
  const toolNames = input.tools.map((tool) => tool.name)
  const images = input.model.hasVision ? (input.images ?? []) : []
  const userPrompt = userPromptRenderer(resolveUserPromptTemplate(input.project.userPromptOverride), { hasVision: input.model.hasVision })
  let lastSystem: SystemPromptResult | null = null

  const fitted: FittedRequest<Skill> = fitRequest<Skill>({
    contextWindow: input.model.contextWindow,
    reservedOutput: input.model.reservedOutput,
    renderSystem: (parts) => {
      lastSystem = assembleSystemPrompt({
        project: input.project,
        memory: { included: [...parts.memory], droppedCount: input.memory.droppedCount + parts.droppedMemoryCount },
        skills: [...parts.skills],
        now: input.now,
        timezone: input.timezone,
        testMode: input.testMode,
        tools: toolNames,
        channel: input.channel,
        forkSelection: input.forkSelection,
        runtimeOverride: input.runtimeOverride ?? null
      })
      return lastSystem.text
    },
    memory: input.memory.included,
    skills: input.project.skills,
    toolSchemasTokens: Math.ceil(toolSchemaTokens(input.tools) * (input.model.tokenScale ?? 1)),
    history: input.history,
    context: buildContextBlock({ files: input.files, results: input.results }),
    renderUser: (context) => userPrompt.render(input.question, context),
    archive: { source: input.archiveSource, now: input.now.toISOString() },
    countTokens: scaledCounter(input.model.tokenScale ?? 1),
    imageCount: images.length
  })

  const system = lastSystem ?? assembleSystemPrompt({
    project: input.project,
    memory: { included: fitted.memory.included, droppedCount: input.memory.droppedCount },
    now: input.now,
    timezone: input.timezone,
    testMode: input.testMode,
    tools: toolNames
  })
  const hasQuestion = input.question.trim().length > 0
  const request = hasQuestion
    ? buildRequestMessages({
        system: fitted.system,
        history: fitted.history,
        user: fitted.user,
        images,
        model: { supportsPromptCache: input.model.supportsPromptCache }
      })
    : []
  const diagnostics: Diagnostic[] = [...input.project.diagnostics, ...system.diagnostics, ...userPrompt.diagnostics]

  return {
    preview: {
      system: fitted.system,
      user: hasQuestion ? fitted.user : '',
      messages: hasQuestion ? request : [{ role: 'system', content: fitted.system }],
      sections: system.sections,
      memory: { included: fitted.memory.included, dropped: [...input.memory.dropped, ...fitted.memory.dropped] },
      diagnostics,
      overrideMode: system.overrideMode,
      budget: fitted.budget && {
        ...fitted.budget,
        ...(input.model.contextSource ? { contextSource: input.model.contextSource } : {}),
        ...(input.model.tokenScale !== undefined && input.model.tokenScale !== 1 ? { tokenScale: input.model.tokenScale } : {}),
        ...(fitted.archivedHistory.length > 0 ? { archivedMessages: fitted.archivedHistory.length } : {})
      }
    },
    request,
    archivedHistory: fitted.archivedHistory
  }
}
