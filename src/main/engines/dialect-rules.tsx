import type { Connection } from '../project/types'
import { h } from '../prompt/markdown/jsx-runtime'
import type { MarkdownNode } from '../prompt/markdown/jsx-runtime'
import { Bold, List, ListItem, Section } from '../prompt/markdown/components'

/** What every dialect component receives: the user's connections of that dialect. */
export interface DialectProps {
  connections: readonly Connection[]
}

const NAMED_DATABASES = 5

/** The folder a connection comes from, as a section source. */
export function connectionFolder(connection: Connection): string {
  return `databases/type=${connection.type}/database=${connection.database}/`
}

/** One dialect's rules as a labelled sub-list of the SQL rules, registered as `sql-rules.<id>`. */
export function DialectRules({ id, name, connections, children }: DialectProps & { id: string; name: string; children?: MarkdownNode }) {
  const names = connections.map((connection) => connection.database)
  const shown = names.slice(0, NAMED_DATABASES).join(', ')
  const more = names.length > NAMED_DATABASES ? ` and ${names.length - NAMED_DATABASES} more` : ''
  return (
    <Section id={`sql-rules.${id}`} title={`${name} Dialect`} sources={connections.map(connectionFolder)}>
      <List>
        <ListItem>
          <Bold>{name} dialect</Bold> ({shown}{more}):
        </ListItem>
        <List>{children}</List>
      </List>
    </Section>
  )
}
