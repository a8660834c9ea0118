import { CORE_SCHEMA, load, YAMLException } from 'js-yaml'

// Every YAML file of a project is read here: nao_config.yaml, skill front matter, tests/*.yml, the MCP
// config. js-yaml with its core schema reads YAML 1.2 as the `yaml` package did (no dates, no `<<` merges, no
// custom tags; `yes` is a string), at a tenth of the cost on a cold start: parsing one small nao_config.yaml
// took ~3 ms of opening a project. Glassbox writes YAML with `yaml`, whose output keeps SQL readable.

/** Past this many values, aliases expanded, a document is refused: a few lines of anchors can stand for billions. */
export const MAX_EXPANDED_VALUES = 100_000

/** A project file that is not YAML Glassbox reads, in one line (where, and what is wrong). */
export class YamlError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'YamlError'
  }
}

/** The document in `text` (null when it holds none); throws YamlError. */
export function readYaml(text: string): unknown {
  let document: unknown
  let size: number
  try {
    document = load(text, { schema: CORE_SCHEMA })
    // js-yaml shares an aliased value rather than copying it, so the document is small in memory; whoever walks
    // it (a schema check, JSON for the store) visits every copy.
    size = expandedSize(document, new Map())
  } catch (error) {
    if (error instanceof YAMLException) {
      const at = error.mark ? ` at line ${error.mark.line + 1}, column ${error.mark.column + 1}` : ''
      throw new YamlError(`${error.reason}${at}`)
    }
    // Both the parser and the count recurse: thousands of nested brackets overflow the stack.
    if (error instanceof RangeError) throw new YamlError('it nests too deeply')
    throw error
  }
  if (size > MAX_EXPANDED_VALUES) throw new YamlError(`its aliases (*name) stand for more than ${MAX_EXPANDED_VALUES.toLocaleString('en')} values`)
  return document ?? null
}

/** How many values `value` holds with every alias expanded; infinite for a value that contains itself. */
function expandedSize(value: unknown, sizes: Map<object, number>): number {
  if (value === null || typeof value !== 'object') return 1
  const known = sizes.get(value)
  if (known !== undefined) return known
  // Set while its children are counted: meeting it again there means it contains itself.
  sizes.set(value, Infinity)
  let size = 1
  for (const child of Object.values(value)) {
    size += expandedSize(child, sizes)
    if (size > MAX_EXPANDED_VALUES) break
  }
  sizes.set(value, size)
  return size
}
