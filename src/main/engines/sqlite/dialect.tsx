import { h } from '../../prompt/markdown/jsx-runtime'
import { Code, ListItem } from '../../prompt/markdown/components'
import { DialectRules, type DialectProps } from '../dialect-rules'

// SQLite database files, opened read-only.

export function SqliteRules({ connections }: DialectProps) {
  return (
    <DialectRules id="sqlite" name="SQLite" connections={connections}>
      <ListItem>
        Types are loose: dates are usually ISO-8601 TEXT or Unix-epoch INTEGER, and one column may mix types. Check
        columns.md and preview.md before comparing or truncating dates.
      </ListItem>
      <ListItem>
        Integer division truncates (<Code>7 / 2</Code> is 3): write <Code>1.0 * a / b</Code> or{' '}
        <Code>CAST(a AS REAL) / b</Code> for ratios, and <Code>NULLIF(b, 0)</Code> to avoid dividing by zero.
      </ListItem>
      <ListItem>
        No <Code>date_trunc</Code>: group by <Code>strftime('%Y-%m', d)</Code>, shift with{' '}
        <Code>date(d, '-7 days')</Code>, measure with <Code>julianday(end) - julianday(start)</Code>; epoch
        integers need <Code>datetime(ts, 'unixepoch')</Code>.
      </ListItem>
      <ListItem>
        No <Code>GROUP BY ALL</Code>, no <Code>QUALIFY</Code>, no <Code>ILIKE</Code>: filter window results in a CTE;
        LIKE is already case-insensitive for ASCII, while <Code>=</Code> is not.
      </ListItem>
      <ListItem>
        Concatenate with <Code>||</Code>; booleans are 0 and 1; prefer <Code>SUM(CASE WHEN ... THEN 1 ELSE 0 END)</Code>{' '}
        for conditional counts. The database is read-only.
      </ListItem>
    </DialectRules>
  )
}
