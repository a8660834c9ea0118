import { openSync, readSync, closeSync, fstatSync } from 'node:fs'
import { parse } from 'yaml'
import type { ProjectSnapshot } from '../project/types'
import { resolveInside } from '../project/safe-path'

// Example questions for an empty chat, from the project itself: the prompts of its tests (questions its
// authors know the answer to), then its tables. A fixed list would ask a coffee shop about coupons.

const MAX_EXAMPLES = 3
const MAX_TEST_BYTES = 64 * 1024
const MAX_QUESTION_CHARS = 160

const cache = new WeakMap<ProjectSnapshot, string[]>()

export function exampleQuestions(snapshot: ProjectSnapshot): string[] {
  const known = cache.get(snapshot)
  if (known) return known
  const examples: string[] = []
  for (const file of snapshot.tests) {
    if (examples.length >= MAX_EXAMPLES) break
    const prompt = testPrompt(snapshot.root, file)
    if (prompt && !examples.includes(prompt)) examples.push(prompt)
  }
  for (const table of snapshot.tables) {
    if (examples.length >= MAX_EXAMPLES) break
    examples.push(`What is in the ${table.table} table?`)
  }
  cache.set(snapshot, examples)
  return examples
}

/** The `prompt:` of one test file, read through the project's path guard; null when it has none usable. */
function testPrompt(root: string, file: string): string | null {
  let fd: number | null = null
  try {
    fd = openSync(resolveInside(root, file), 'r')
    const size = Math.min(fstatSync(fd).size, MAX_TEST_BYTES)
    const buffer = Buffer.alloc(size)
    readSync(fd, buffer, 0, size, 0)
    const document: unknown = parse(buffer.toString('utf8'))
    if (typeof document !== 'object' || document === null || !('prompt' in document) || typeof document.prompt !== 'string') return null
    const prompt = document.prompt.replace(/\s+/g, ' ').trim()
    return prompt === '' || prompt.length > MAX_QUESTION_CHARS ? null : prompt
  } catch {
    return null
  } finally {
    if (fd !== null) closeSync(fd)
  }
}
