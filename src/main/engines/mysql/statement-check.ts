// What a MySQL/MariaDB read-only transaction still lets a SELECT do, refused by name before the server sees
// it: writing a file (INTO OUTFILE / DUMPFILE), setting variables (INTO @x), taking named locks that outlive
// the query, and reading files on the server. The query's code is read with MySQL's own lexical rules
// (quotes, backticks, comments) — and `/*! … */` comments count as code, because the server runs them.

const REFUSED_FUNCTIONS = new Map([
  ['get_lock', 'named locks (GET_LOCK) outlive the query'],
  ['release_lock', 'named locks (RELEASE_LOCK) are not for queries'],
  ['release_all_locks', 'named locks (RELEASE_ALL_LOCKS) are not for queries'],
  ['load_file', 'LOAD_FILE reads files on the database server'],
  ['sys_exec', 'SYS_EXEC runs programs on the database server'],
  ['sys_eval', 'SYS_EVAL runs programs on the database server']
])

/** Why the query is refused, or null. Strings, identifiers and comments are not code. */
export function refusedConstruct(sql: string): string | null {
  const words = codeWords(sql)
  for (let index = 0; index < words.length; index++) {
    const word = words[index]
    if (word.text === 'into') {
      return 'SELECT … INTO (OUTFILE, DUMPFILE or variables) is refused: a query may only return rows.'
    }
    const reason = REFUSED_FUNCTIONS.get(word.text)
    if (reason && words[index + 1]?.text === '(') return `Refused: ${reason}.`
  }
  return null
}

interface Word {
  text: string
}

/** The query's bare words (lower case) and opening parentheses, skipping quoted text and comments. */
function codeWords(sql: string): Word[] {
  const words: Word[] = []
  let index = 0
  while (index < sql.length) {
    const char = sql[index]
    const next = sql[index + 1]
    if (char === "'" || char === '"' || char === '`') {
      index = skipQuoted(sql, index, char)
    } else if (char === '#' || (char === '-' && next === '-' && /[\s]/.test(sql[index + 2] ?? ' '))) {
      const end = sql.indexOf('\n', index)
      index = end === -1 ? sql.length : end + 1
    } else if (char === '/' && next === '*') {
      const executable = /^\/\*(M?!)(\d{5,6})?/.exec(sql.slice(index, index + 10))
      if (executable) {
        // Executable comment: its body is code; only the markers are dropped.
        index += executable[0].length
        continue
      }
      const end = sql.indexOf('*/', index + 2)
      index = end === -1 ? sql.length : end + 2
    } else if (char === '*' && next === '/') {
      index += 2
    } else if (char === '(') {
      words.push({ text: '(' })
      index++
    } else if (/[A-Za-z0-9_$\u0080-\uffff]/.test(char)) {
      let end = index
      while (end < sql.length && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[end])) end++
      words.push({ text: sql.slice(index, end).toLowerCase() })
      index = end
      // MySQL allows spaces between a function name and its parenthesis only in some modes; count them anyway.
      while (index < sql.length && /\s/.test(sql[index])) index++
    } else {
      index++
    }
  }
  return words
}

/** Past the closing quote: doubled quotes and (outside backticks) backslash escapes stay inside. */
function skipQuoted(sql: string, start: number, quote: string): number {
  let index = start + 1
  while (index < sql.length) {
    const char = sql[index]
    if (char === '\\' && quote !== '`') {
      index += 2
      continue
    }
    if (char === quote) {
      if (sql[index + 1] === quote) {
        index += 2
        continue
      }
      return index + 1
    }
    index++
  }
  return index
}
