// Does the question ask for an order? Only then is the row order of an answer judged (a case can say
// `ordered: true|false` instead). defog's sql-eval looks for the words order/sort/arrange; this also knows
// rankings, top/bottom N, "highest first", "from … to …", ascending/descending, alphabetical and
// chronological — and that "in order to" and the noun "order" ("each order's total") ask for nothing.

const NUMBER = '(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|fifty|hundred)'
const EXTREME = '(?:highest|lowest|largest|smallest|biggest|greatest|most|least|fewest|latest|earliest|newest|oldest|best|worst|first|last|top|bottom|longest|shortest|cheapest|priciest)'

const ORDER_PHRASES: readonly RegExp[] = [
  /\b(?:sort|sorts|sorted|sorting)\b/i,
  /\b(?:ordered|ordering)\b/i,
  /\border\s+(?:(?:them|it|these|those|the\s+\w+)\s+)?by\b/i,
  /\bin\s+(?:\w+\s+){0,3}order\b(?!\s+to\b)/i,
  /\b(?:rank|ranks|ranked|ranking)\b/i,
  /\b(?:arrange|arranged)\b/i,
  /\b(?:ascending|descending)\b/i,
  /\b(?:alphabetical|alphabetically|chronological|chronologically)\b/i,
  new RegExp(`\\b(?:top|bottom|first|last)\\s+${NUMBER}\\b`, 'i'),
  new RegExp(`\\b${EXTREME}\\s+(?:\\w+\\s+){0,2}first\\b`, 'i'),
  new RegExp(`\\bfrom\\s+(?:the\\s+)?${EXTREME}\\s+(?:\\w+\\s+){0,2}to\\s+(?:the\\s+)?${EXTREME}\\b`, 'i')
]

/** The words by which the question asks for an order (for the verdict line), or null when it asks for none. */
export function orderAskedBy(question: string): string | null {
  const text = question.replace(/\s+/g, ' ')
  for (const phrase of ORDER_PHRASES) {
    const match = phrase.exec(text)
    if (match) return match[0]
  }
  return null
}
