import type { MemoryItem } from '../src/shared/prompt'
import { createAgentTools } from '../src/main/agent/tools'
import type { ProjectSnapshot } from '../src/main/project/types'
import { assembleSystemPrompt, type SystemPromptResult } from '../src/main/prompt/system/assemble'

// The system prompt the benches time, assembled as a chat turn does: the clock now, not in test mode, the
// agent's tools, and the given memories (none by default), in the given time zone (UTC by default).

export function chatTurnPrompt(project: ProjectSnapshot, memories: MemoryItem[] = [], timezone = 'UTC'): SystemPromptResult {
  return assembleSystemPrompt({
    project,
    memory: { included: memories, droppedCount: 0 },
    now: new Date(),
    timezone,
    testMode: false,
    tools: createAgentTools().map((tool) => tool.name)
  })
}

/** Every section's token count, read as the inspector reads them (they are counted on first read). */
export function countAllSections(prompt: SystemPromptResult): number {
  return prompt.sections.reduce((sum, section) => sum + section.tokens, 0)
}
