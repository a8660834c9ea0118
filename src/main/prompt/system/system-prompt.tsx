import type { MemoryItem } from '../../../shared/prompt'
import type { Connection, ProjectSnapshot, Skill } from '../../project/types'
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
  const head = { project, skills, date, timezone, testMode, tools }
  return (
    <Block>
      {/* The same inputs give the same behaviour sections: rendered once, not after every file change or answer. */}
      <Memo on={headKey(head)}>
        <Head {...head} />
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

type HeadProps = Omit<SystemPromptProps, 'memory'>

function Head({ project, skills, date, timezone, testMode, tools }: HeadProps) {
  return (
    <Block>
      <Instructions date={date} timezone={timezone} mentions={{ tables: project.tables.length > 0, skills: skills.length > 0 }} />
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

// One key object per distinct head input: the connections list by identity (kept while databases/ is
// unchanged), everything else the head reads by value. A few are kept per list (the date changes daily).
const MAX_HEAD_KEYS = 8
const headKeys = new WeakMap<readonly Connection[], Map<string, object>>()

function headKey({ project, skills, date, timezone, testMode, tools }: HeadProps): object {
  const value = JSON.stringify([
    date,
    timezone,
    testMode,
    tools,
    project.tables.length > 0,
    skills.length > 0,
    project.rules?.source ?? null,
    project.contextFolders
  ])
  let keys = headKeys.get(project.connections)
  if (!keys) {
    keys = new Map()
    headKeys.set(project.connections, keys)
  }
  let key = keys.get(value)
  if (!key) {
    if (keys.size >= MAX_HEAD_KEYS) keys.delete(keys.keys().next().value as string)
    key = {}
    keys.set(value, key)
  }
  return key
}
