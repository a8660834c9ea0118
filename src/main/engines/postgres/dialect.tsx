import { h } from '../../prompt/markdown/jsx-runtime'
import { Code, ListItem } from '../../prompt/markdown/components'
import { DialectRules, type DialectProps } from '../dialect-rules'

// Postgres servers, queried in read-only transactions.

export function PostgresRules({ connections }: DialectProps) {
  return (
    <DialectRules id="postgres" name="Postgres" connections={connections}>
      <ListItem>
        Double-quote identifiers that have capitals; integer division truncates, so cast to numeric for ratios and
        guard with <Code>NULLIF(b, 0)</Code>.
      </ListItem>
      <ListItem>
        Use <Code>date_trunc('month', d)</Code>, <Code>ILIKE</Code>, <Code>DISTINCT ON</Code>,{' '}
        <Code>count(*) FILTER (WHERE ...)</Code> and <Code>generate_series</Code> for date spines.
      </ListItem>
      <ListItem>
        Each query is one SELECT (or WITH ... SELECT, VALUES) run in a read-only transaction with a time limit;
        schema-qualify tables outside <Code>public</Code> (<Code>crm.customers</Code>).
      </ListItem>
    </DialectRules>
  )
}
