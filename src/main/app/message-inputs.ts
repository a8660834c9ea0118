import { promises as fsPromises } from 'node:fs'
import { resolve } from 'node:path'
import { readRegularFile } from '../project/regular-file'
import { resolveInside, toProjectPath } from '../project/safe-path'
import type { ProjectSnapshot, TableRef } from '../project/types'
import { isHidden } from '../project/visibility'
import { describeAttachment, describeResult } from '../prompt/user'
import type { FileMeta, ResultMeta } from '../prompt/user/context-block'
import type { ChatDetail, ChatMessageView } from '../../shared/api'
import { errorMessage } from '../../shared/error-message'

// What the user adds to a message besides the question: attached files (metadata only), tables picked with
// `@` (their columns.md, as referenced context) and a skill picked with `/` (its body goes into the message).

/** Larger images are described but not sent: local vision models take a few megapixels at most. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024

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
 * Attachments obey the agent's file rules, from the app, the web API and the command line alike: inside the
 * project (symlinks resolved), and not hidden by `.naoignore` or `.git`. The agent can only read what its
 * tools can see, and an attachment's summary (its first line) goes into the prompt.
 */
export async function describeMessageFiles(project: ProjectSnapshot, extras: MessageExtras): Promise<{ files: FileMeta[]; images: string[] }> {
  const files: FileMeta[] = []
  const images: string[] = []
  for (const path of extras.attachments ?? []) {
    const absolute = resolveAttachment(project, path)
    const file = await describeAttachment(absolute, { fileId: toProjectPath(project.root, absolute) })
    files.push(file)
    if (file.type.startsWith('image/') && (await fsPromises.stat(absolute)).size <= MAX_IMAGE_BYTES) {
      images.push(`data:${file.type};base64,${(await readRegularFile(absolute, MAX_IMAGE_BYTES)).bytes.toString('base64')}`)
    }
  }
  for (const reference of extras.tables ?? []) {
    const table = findTable(project, reference)
    const columns = `${table.dir}/columns.md`
    if (!table.files.includes('columns.md')) throw new MessageInputError(`Table ${reference} has no columns.md; run sync first.`)
    files.push(await describeAttachment(resolveAttachment(project, columns), { fileId: columns, name: `${table.table} columns.md` }))
  }
  return { files, images }
}

/** A forked chat refers to the answer it was forked from: it goes into the context block as an earlier result. */
export function forkedFrom(chat: ChatDetail | null, message: (id: string) => ChatMessageView): ResultMeta[] {
  if (!chat?.parentMessageId) return []
  let parent: ChatMessageView
  try {
    parent = message(chat.parentMessageId)
  } catch {
    return []
  }
  const toolCalls = (parent.toolCalls ?? []).map((call) => ({ callId: call.callId, toolName: call.name, status: call.ok === false ? 'failed' : 'done' }))
  return [
    describeResult({
      resultId: parent.id,
      title: `The answer "${chat.title}" was forked from`,
      status: parent.status ?? 'done',
      content: parent.text,
      createdAt: parent.createdAt,
      toolCalls
    })
  ]
}

/** The real path of an attachment the agent could read too; anything else is a MessageInputError. */
function resolveAttachment(project: ProjectSnapshot, path: string): string {
  let real: string
  try {
    real = resolveInside(project.root, path)
  } catch (error) {
    throw new MessageInputError(errorMessage(error))
  }
  // Both the path as given and where it leads must be visible: a link to .git/config is as hidden as the file.
  const given = toProjectPath(project.root, resolve(project.root, path))
  const hidden = (relPath: string): boolean => !relPath.startsWith('..') && isHidden(relPath, project.ignorePatterns)
  if (hidden(toProjectPath(project.root, real)) || hidden(given)) {
    throw new MessageInputError(`Cannot attach "${path}": it is hidden from the agent (.naoignore or .git), so it cannot be attached.`)
  }
  return real
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
