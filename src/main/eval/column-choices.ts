// defog's sql-eval writes "the question allows any of these columns" inside the gold SQL:
// `SELECT {author.name, author.aid} FROM author … GROUP BY {}` stands for every non-empty subset of the
// braced columns (GROUP BY {} taking the same ones). A case may use that markup as it is: each subset becomes
// one acceptable SQL. Only a brace group holding a plain list of column names counts, so DuckDB's struct
// literals ({'a': 1}) and braces inside strings are left alone.

const CHOICES = /\{\s*((?:"[^"]+"|[\w.]+)(?:\s*,\s*(?:"[^"]+"|[\w.]+))*)\s*\}/
/** 2^6 − 1 = 63 queries at most: more choices than that is not a question's wording. */
const MAX_CHOICES = 6

/** The SQL's acceptable forms: itself when it has no column choices, else one per subset of the first group. */
export function expandColumnChoices(sql: string): string[] {
  const code = sql.replace(/'(?:[^']|'')*'/g, (text) => `'${'_'.repeat(text.length - 2)}'`)
  const match = CHOICES.exec(code)
  if (!match) return [sql]
  const options = sql.slice(match.index + 1, match.index + match[0].length - 1).split(',').map((option) => option.trim())
  if (options.length > MAX_CHOICES) return [sql]
  const before = sql.slice(0, match.index)
  const after = sql.slice(match.index + match[0].length)
  return subsets(options).map((columns) => `${before}${columns.join(', ')}${after.replace(/group\s+by\s+\{\s*\}/gi, (text) => `${text.slice(0, text.indexOf('{')).trimEnd()} ${columns.join(', ')}`)}`)
}

/** Non-empty subsets in defog's order: all singles first, then pairs, …, the whole list last. */
function subsets<T>(items: readonly T[]): T[][] {
  const all: T[][] = []
  for (let size = 1; size <= items.length; size++) {
    const pick = (start: number, chosen: T[]): void => {
      if (chosen.length === size) {
        all.push(chosen)
        return
      }
      for (let index = start; index < items.length; index++) pick(index + 1, [...chosen, items[index]])
    }
    pick(0, [])
  }
  return all
}
