import type { MemoryItem } from '../../../shared/prompt'
import type { ProjectSnapshot, Skill } from '../../project/types'
import { h } from '../markdown/jsx-runtime'
import { Block, Memo } from '../markdown/components'
import { ChartRules, CitationRules, FormattingRules, Persona, ToolCalls } from './behaviour'
import { ContextStructure } from './context-structure'
import { Connections, Memory, Skills, UserRules } from './context-sections'
import { Instructions } from './instructions'
import { SqlQueryRules } from './sql-rules'

export interface SystemPromptProps {
  project: ProjectSnapshot
  memory: { included: readonly MemoryItem[]; droppedCount: number }
  skills: readonly Skill[]
  /** Today's date, already formatted in the user's time zone. */
  date: string
  timezone: string
  testMode: boolean
  /** Names of the tools the run offers; rules about a tool appear only when it is there. */
  tools: readonly string[]
}

/** The default system prompt: fixed behaviour sections, then the trailing context separated by rules. */
export function SystemPrompt({ project, memory, skills, date, timezone, testMode, tools }: SystemPromptProps) {
  const mentions = { tables: project.tables.length > 0, skills: skills.length > 0 }
  const behaviour = { project, testMode, tools }
  return (
    <Block>
      {/* The same inputs give the same sections: rendered once, not after every file change or answer. The
          instructions apart, as only they change with the date and with whether there are skills (the budget
          leaves them all out when the window is small). */}
      <Memo on={instructionsKey(date, timezone, mentions)}>
        <Instructions date={date} timezone={timezone} mentions={mentions} />
      </Memo>
      <Memo on={behaviourKey(behaviour)}>
        <Behaviour {...behaviour} />
      </Memo>
      <Block separator={'\n\n---\n\n'}>
        {project.rules && (
          <Memo on={project.rules}>
            <UserRules rules={project.rules} />
          </Memo>
        )}
        <Memo on={project.connections}>
          <Connections connections={project.connections} />
        </Memo>
        {/* The skills list keeps its object while unchanged; Skills keeps its items per list and per skill. */}
        <Skills skills={skills} />
        <Memory included={memory.included} droppedCount={memory.droppedCount} />
      </Block>
    </Block>
  )
}

interface BehaviourProps {
  project: ProjectSnapshot
  testMode: boolean
  tools: readonly string[]
}

function Behaviour({ project, testMode, tools }: BehaviourProps) {
  return (
    <Block>
      <ContextStructure project={project} />
      <Persona />
      <ToolCalls tools={tools} testMode={testMode} />
      <SqlQueryRules connections={project.connections} />
      {tools.includes('display_chart') && <ChartRules />}
      <CitationRules />
      <FormattingRules />
    </Block>
  )
}

// One key object per distinct input of a memoised part, found by the value of what the part reads. A few
// are kept per scope (the date changes daily).
const MAX_KEYS_PER_SCOPE = 8
const keysByScope = new WeakMap<object, Map<string, object>>()

function keyObject(scope: object, value: string): object {
  let keys = keysByScope.get(scope)
  if (!keys) {
    keys = new Map()
    keysByScope.set(scope, keys)
  }
  let key = keys.get(value)
  if (!key) {
    if (keys.size >= MAX_KEYS_PER_SCOPE) keys.delete(keys.keys().next().value as string)
    key = {}
    keys.set(value, key)
  }
  return key
}

const INSTRUCTIONS_SCOPE = {}

function instructionsKey(date: string, timezone: string, mentions: { tables: boolean; skills: boolean }): object {
  return keyObject(INSTRUCTIONS_SCOPE, JSON.stringify([date, timezone, mentions.tables, mentions.skills]))
}

/** The connections list by identity (kept while databases/ is unchanged), everything else the part reads by value. */
function behaviourKey({ project, testMode, tools }: BehaviourProps): object {
  return keyObject(project.connections, JSON.stringify([testMode, tools, project.tables.length > 0, project.rules?.source ?? null, project.contextFolders]))
}
