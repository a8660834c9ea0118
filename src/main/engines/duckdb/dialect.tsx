import { h } from '../../prompt/markdown/jsx-runtime'
import { Code, ListItem } from '../../prompt/markdown/components'
import { DialectRules, type DialectProps } from '../dialect-rules'

// DuckDB (database files, and the project's data files through the files engine). Read-only.

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
        <Code>count(*) FILTER (WHERE ...)</Code> for conditional aggregates, <Code>arg_max(value, ordering)</Code>,{' '}
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
