import { readYaml } from '../project/yaml'
import { readProjectTextSync } from '../project/read-text'
import type { ProjectSnapshot } from '../project/types'

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

/**
 * The `prompt:` of one test file, read like every project file (path guard, regular files only: a named pipe
 * in tests/ must not block opening the project); null when it has none usable.
 */
function testPrompt(root: string, file: string): string | null {
  const read = readProjectTextSync(root, file, MAX_TEST_BYTES)
  if (!read.ok) return null
  try {
    const document: unknown = readYaml(read.text)
    if (typeof document !== 'object' || document === null || !('prompt' in document) || typeof document.prompt !== 'string') return null
    const prompt = document.prompt.replace(/\s+/g, ' ').trim()
    return prompt === '' || prompt.length > MAX_QUESTION_CHARS ? null : prompt
  } catch {
    return null
  }
}
