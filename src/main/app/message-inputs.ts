import { isAbsolute } from 'node:path'
import { resolveInside, toProjectPath } from '../project/safe-path'
import type { ProjectSnapshot, TableRef } from '../project/types'
import { describeAttachment } from '../prompt/user'
import type { FileMeta } from '../prompt/user/context-block'

// What the user adds to a message besides the question: attached files (metadata only), tables picked with
// `@` (their columns.md, as referenced context) and a skill picked with `/` (its body goes into the message).

/** Skill bodies longer than this are cut in the middle: the start says what it is, the end how to finish. */
export const MAX_SKILL_CHARS = 16_000

export interface MessageExtras {
  attachments?: string[]
  tables?: string[]
  skill?: string
}

export class MessageInputError extends Error {
  override name = 'MessageInputError'
}

/**
 * Attachments from the app must be inside the project (the agent can only read project files with its
 * tools); `allowOutside` is for the command line, where the user names a file on purpose to preview it.
 */
export async function describeMessageFiles(
  project: ProjectSnapshot,
  extras: MessageExtras,
  options: { allowOutside?: boolean } = {}
): Promise<FileMeta[]> {
  const files: FileMeta[] = []
  for (const path of extras.attachments ?? []) {
    if (options.allowOutside && isAbsolute(path)) {
      files.push(await describeAttachment(path))
      continue
    }
    const absolute = resolveAttachment(project, path)
    files.push(await describeAttachment(absolute, { fileId: toProjectPath(project.root, absolute) }))
  }
  for (const reference of extras.tables ?? []) {
    const table = findTable(project, reference)
    const columns = `${table.dir}/columns.md`
    if (!table.files.includes('columns.md')) throw new MessageInputError(`Table ${reference} has no columns.md; run sync first.`)
    files.push(await describeAttachment(resolveInside(project.root, columns), { fileId: columns, name: `${table.table} columns.md` }))
  }
  return files
}

function resolveAttachment(project: ProjectSnapshot, path: string): string {
  try {
    return resolveInside(project.root, path)
  } catch (error) {
    throw new MessageInputError(error instanceof Error ? error.message : String(error))
  }
}

/** `orders`, `main.orders`, `jaffle_shop.main.orders` or the table's folder. */
export function findTable(project: ProjectSnapshot, reference: string): TableRef {
  const wanted = reference.trim().replace(/^@/, '').toLowerCase()
  const names = (table: TableRef): string[] =>
    [table.table, `${table.schema}.${table.table}`, `${table.database}.${table.schema}.${table.table}`, table.dir].map((name) =>
      name.toLowerCase()
    )
  const match = project.tables.find((table) => names(table).includes(wanted))
  if (!match) throw new MessageInputError(`No table "${reference}" in this project's databases/ folder.`)
  return match
}

/** The question as sent: with the chosen skill's body after it. */
export function messageText(project: ProjectSnapshot, question: string, skillName: string | undefined): string {
  if (!skillName) return question
  const skill = project.skills.find((candidate) => candidate.name.toLowerCase() === skillName.trim().replace(/^\//, '').toLowerCase())
  if (!skill) throw new MessageInputError(`No skill "${skillName}" in agent/skills/.`)
  return `${question}\n\n## Skill: ${skill.name}\n\n${cutInMiddle(skill.body.trim(), MAX_SKILL_CHARS)}`
}

export function cutInMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const half = Math.floor(maxChars / 2)
  const removed = text.length - 2 * half
  return `${text.slice(0, half)}\n\n… [${removed} characters cut from the middle] …\n\n${text.slice(text.length - half)}`
}
