import { h } from '../markdown/jsx-runtime'
import { Code, ListItem } from '../markdown/components'
import { DialectRules, type DialectProps } from '../../engines/dialect-rules'

// Warehouses a project can describe but Glassbox has no engine for: listed, never queried.

export function BigQueryRules({ connections }: DialectProps) {
  return (
    <DialectRules id="bigquery" name="BigQuery" connections={connections}>
      <ListItem>
        Quote table paths with backticks: <Code>`project.dataset.table`</Code>.
      </ListItem>
      <ListItem>
        Divide with <Code>SAFE_DIVIDE(a, b)</Code> to avoid division-by-zero errors; cast with{' '}
        <Code>SAFE_CAST</Code>.
      </ListItem>
      <ListItem>
        Dates: <Code>DATE_TRUNC(d, MONTH)</Code>, <Code>DATE_DIFF(end, start, DAY)</Code>; filter partitioned
        tables on their partition column.
      </ListItem>
    </DialectRules>
  )
}

export function TsqlRules({ connections }: DialectProps) {
  return (
    <DialectRules id="tsql" name="T-SQL" connections={connections}>
      <ListItem>
        Use <Code>SELECT TOP n</Code>, not LIMIT (or <Code>OFFSET ... FETCH</Code> after ORDER BY).
      </ListItem>
      <ListItem>
        There is no <Code>GROUP BY ALL</Code>: list every grouped column.
      </ListItem>
      <ListItem>
        Use <Code>ISNULL(x, 0)</Code> or COALESCE; quote identifiers with <Code>[brackets]</Code>; dates with{' '}
        <Code>DATEADD</Code>, <Code>DATEDIFF</Code>, <Code>DATETRUNC</Code>.
      </ListItem>
    </DialectRules>
  )
}

export function RedshiftRules({ connections }: DialectProps) {
  return (
    <DialectRules id="redshift" name="Redshift" connections={connections}>
      <ListItem>
        No <Code>DISTINCT ON</Code>: keep the first row per group with <Code>ROW_NUMBER()</Code> in a subquery.
      </ListItem>
      <ListItem>
        Concatenate with <Code>||</Code> (CONCAT takes only two arguments); measure time with{' '}
        <Code>DATEDIFF</Code>, not AGE.
      </ListItem>
      <ListItem>
        Conditional aggregates use <Code>CASE</Code> inside the aggregate, not <Code>FILTER (WHERE ...)</Code>.
      </ListItem>
    </DialectRules>
  )
}

export function ClickHouseRules({ connections }: DialectProps) {
  return (
    <DialectRules id="clickhouse" name="ClickHouse" connections={connections}>
      <ListItem>
        Read the table's <Code>indexes.md</Code> first and filter on its sorting and partition keys.
      </ListItem>
      <ListItem>
        Function names are case-sensitive: <Code>toStartOfMonth(d)</Code>, <Code>countIf(cond)</Code>,{' '}
        <Code>sumIf(x, cond)</Code>; <Code>uniqExact</Code> counts exactly, <Code>uniq</Code> approximately.
      </ListItem>
    </DialectRules>
  )
}

export function SnowflakeRules({ connections }: DialectProps) {
  return (
    <DialectRules id="snowflake" name="Snowflake" connections={connections}>
      <ListItem>
        Unquoted identifiers are upper-cased and quoted ones are case-sensitive: write names exactly as columns.md
        shows them.
      </ListItem>
      <ListItem>
        Use <Code>QUALIFY</Code> for window filters, <Code>DIV0(a, b)</Code> for safe division,{' '}
        <Code>TRY_CAST</Code>, <Code>DATEADD</Code>/<Code>DATEDIFF('day', start, end)</Code>, and{' '}
        <Code>col:field::string</Code> with <Code>LATERAL FLATTEN</Code> for semi-structured data.
      </ListItem>
    </DialectRules>
  )
}
