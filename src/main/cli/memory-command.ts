import { parseArgs } from 'node:util'
import type { MemoryView } from '../../shared/api'
import { jsonLine, type CliIo, type CommandOptions } from './io'
import { resolveDataDir } from '../data-dir'
import {
  addMemory,
  deleteMemory,
  editMemory,
  listMemories,
  MemoryInputError,
  parseCategory,
  projectForFolder,
  setMemoryEnabled,
  setProjectMemory
} from '../memory/service'
import { openStore, StoreError, StoreNotFoundError, type Store } from '../store'
import { CliError } from './cli-error'

// `glassbox memory list | add --category C TEXT | edit ID TEXT | disable ID | enable ID | delete ID | on | off
//   --project DIR [--data-dir DIR] [--json]`

const USAGE =
  'usage: memory list | add --category C TEXT | edit ID TEXT | disable ID | enable ID | delete ID | on | off ' +
  '--project DIR [--data-dir DIR] [--json]'

function parseId(value: string | undefined): number {
  if (value === undefined) throw new CliError(`missing memory id; ${USAGE}`)
  if (!/^\d+$/.test(value) || Number(value) === 0)
    throw new CliError(`memory id must be a positive whole number, got '${value}'`)
  return Number(value)
}

function text(words: string[]): string {
  const joined = words.join(' ')
  if (joined.trim() === '') throw new CliError(`missing memory text; ${USAGE}`)
  return joined
}

function describe(memory: MemoryView): string {
  const state = [
    memory.enabled ? '' : 'disabled',
    memory.supersededBy === null ? '' : `superseded by #${memory.supersededBy}`
  ].filter(Boolean)
  return `#${memory.id}  ${memory.category.padEnd(13)}  ${memory.content}${state.length ? `  [${state.join(', ')}]` : ''}`
}

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = {
  project: { type: 'string' },
  'data-dir': { type: 'string' },
  category: { type: 'string' },
  json: { type: 'boolean', default: false }
} satisfies CommandOptions

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: OPTIONS
  })
  const [action, ...rest] = positionals
  if (!action) throw new CliError(`missing action; ${USAGE}`)
  if (!values.project) throw new CliError(`missing --project DIR; ${USAGE}`)
  const print = (json: unknown, line: string) => io.stdout(values.json ? jsonLine(json) : line + '\n')

  let store: Store | null = null
  try {
    store = openStore(resolveDataDir(values['data-dir']))
    const project = projectForFolder(store, values.project)
    switch (action) {
      case 'list': {
        const memories = listMemories(store, project.id)
        const header = `Memory is ${project.memoryEnabled ? 'on' : 'off'} for ${project.rootPath}`
        print(memories, [header, ...(memories.length ? memories.map(describe) : ['(no memories)'])].join('\n'))
        return 0
      }
      case 'add': {
        if (!values.category) throw new CliError(`missing --category (global_rule or personal_fact); ${USAGE}`)
        const memory = addMemory(store, project.id, parseCategory(values.category), text(rest))
        print(memory, `Added ${describe(memory)}`)
        return 0
      }
      case 'edit': {
        const memory = editMemory(store, project.id, parseId(rest[0]), text(rest.slice(1)))
        print(memory, `Edited ${describe(memory)}`)
        return 0
      }
      case 'disable':
      case 'enable': {
        const memory = setMemoryEnabled(store, project.id, parseId(rest[0]), action === 'enable')
        print(memory, `${action === 'enable' ? 'Enabled' : 'Disabled'} ${describe(memory)}`)
        return 0
      }
      case 'delete': {
        const id = parseId(rest[0])
        deleteMemory(store, project.id, id)
        print({ deleted: id }, `Deleted #${id}`)
        return 0
      }
      case 'on':
      case 'off': {
        const updated = setProjectMemory(store, project.id, action === 'on')
        print({ memoryEnabled: updated.memoryEnabled }, `Memory is ${action} for ${updated.rootPath}`)
        return 0
      }
      default:
        throw new CliError(`unknown action '${action}'; ${USAGE}`)
    }
  } catch (error) {
    if (error instanceof StoreNotFoundError && error.kind === 'memory')
      throw new CliError(`no memory #${error.id} in project ${values.project}`)
    if (error instanceof StoreError || error instanceof MemoryInputError) throw new CliError(error.message)
    throw error
  } finally {
    store?.close()
  }
}
