import { h } from '../markdown/jsx-runtime'
import { Code, ListItem } from '../markdown/components'
import { DialectRules, type DialectProps } from '../../engines/dialect-rules'

// The local engines Glassbox runs SQL on itself. Their databases are opened read-only.

export function DuckDbRules({ connections }: DialectProps) {
  return (
    <DialectRules id="duckdb" name="DuckDB" connections={connections}>
      <ListItem>
        Quote identifiers with double quotes, strings with single quotes. The database is read-only: no CREATE,
        INSERT or temporary tables; use CTEs instead.
      </ListItem>
      <ListItem>
        <Code>/</Code> divides as decimals even for integers (<Code>//</Code> is integer division); round results
        with <Code>round(x, 2)</Code>.
      </ListItem>
      <ListItem>
        Dates: <Code>date_trunc('month', d)</Code>, <Code>date_diff('day', start, end)</Code>,{' '}
        <Code>strftime(d, '%Y-%m')</Code>, <Code>d - INTERVAL 7 DAY</Code>, <Code>current_date</Code>. Cast text
        with <Code>try_cast(x AS DATE)</Code> when values may be malformed.
      </ListItem>
      <ListItem>
        Use what DuckDB offers: <Code>GROUP BY ALL</Code>, <Code>QUALIFY</Code> to filter window functions,{' '}
        <Code>count(*) FILTER (WHERE …)</Code> for conditional aggregates, <Code>arg_max(value, ordering)</Code>,{' '}
        <Code>SELECT * EXCLUDE (col)</Code>.
      </ListItem>
      <ListItem>
        String comparison is case-sensitive: use <Code>ILIKE</Code> or <Code>lower()</Code> for user-typed values.
      </ListItem>
      <ListItem>
        <Code>DESCRIBE table</Code> shows the real columns when columns.md is missing or looks stale.
      </ListItem>
      <ListItem>
        Files inside the project are tables too, by project-relative path: <Code>FROM 'data/sales.csv'</Code>,{' '}
        <Code>read_parquet('data/*.parquet')</Code>, <Code>read_json_auto('data/events.json')</Code>. Nothing outside
        the project and no URLs can be read.
      </ListItem>
    </DialectRules>
  )
}

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
        Concatenate with <Code>||</Code>; booleans are 0 and 1; prefer <Code>SUM(CASE WHEN … THEN 1 ELSE 0 END)</Code>{' '}
        for conditional counts. The database is read-only.
      </ListItem>
    </DialectRules>
  )
}
