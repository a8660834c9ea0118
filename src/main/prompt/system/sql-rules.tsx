import type { Connection } from '../../project/types'
import { h } from '../markdown/jsx-runtime'
import { Block, Code, List, ListItem, Section, Title } from '../markdown/components'
import { dialectsFor } from './dialects'

/** `## SQL Query Rules`: general rules, then one block per SQL dialect among the user's connections. */
export function SqlQueryRules({ connections }: { connections: readonly Connection[] }) {
  const dialects = dialectsFor(connections)
  return (
    <Section id="sql-rules" title="SQL Query Rules" sources={[]}>
      <Block>
        <Title>SQL Query Rules</Title>
        <List>
          <ListItem>
            When a query fails, fix it and run it again: use the file tools (<Code>list</Code>, <Code>search</Code>,{' '}
            <Code>grep</Code>, <Code>read</Code>) to find the real table and column names.
          </ListItem>
          <ListItem>
            Never assume column names: read the table's <Code>columns.md</Code> first.
          </ListItem>
          <ListItem>
            LIMIT (or TOP) caps how many rows are returned, not how many exist. Never report a total or a count from
            the rows a limited query returned; count with a separate <Code>COUNT(*)</Code> query without a limit.
          </ListItem>
          <ListItem>
            Numbers in your answers must come from queries run in this conversation (or be computed from their
            results), never from documentation files: their counts, previews and statistics are stale snapshots.
          </ListItem>
          {dialects.map(({ Rules, connections: matching }) => (
            <Rules connections={matching} />
          ))}
        </List>
      </Block>
    </Section>
  )
}
