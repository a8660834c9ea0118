import type { ProjectSnapshot } from '../../project/types'
import { h, Fragment } from '../markdown/jsx-runtime'
import { Block, Bold, Code, List, ListItem, Section, Span, Title } from '../markdown/components'
import { PRODUCT_NAME } from './instructions'

// How the project folder is laid out, one bullet per part that exists. Exported on its own: the context-audit
// prompt reuses it to explain the same layout.

export interface ContextStructureProps {
  project: ProjectSnapshot
  /** The product named in the title (`## How Glassbox Works`). */
  productName?: string
}

export function ContextStructure({ project, productName = PRODUCT_NAME }: ContextStructureProps) {
  const folders = project.contextFolders
  const hasDatabases = folders.databases || project.tables.length > 0
  const parts = [
    project.rules && <RulesPart source={project.rules.source} />,
    hasDatabases && <DatabasesPart />,
    folders.docs && <FolderPart name="docs/">free documentation: business definitions, processes, notes exported from wikis.</FolderPart>,
    folders.semantics && <FolderPart name="semantics/">metric and entity definitions; compute a metric the way it is defined there.</FolderPart>,
    folders.repos && <FolderPart name="repos/">source code (e.g. dbt models) showing how tables are built.</FolderPart>,
    folders.queries && <FolderPart name="queries/">saved example queries the user trusts.</FolderPart>
  ].filter((part) => part !== false && part !== null)
  return (
    <Section id="context-structure" title={`How ${productName} Works`} sources={contextSources(project)}>
      <Block>
        <Title>How {productName} Works</Title>
        {parts.length === 0
          ? 'The project folder has no context files yet: rely on what the user tells you and say what is missing.'
          : [<Span>The project folder is organised like this:</Span>, <List>{parts}</List>]}
      </Block>
    </Section>
  )
}

function contextSources(project: ProjectSnapshot): string[] {
  const folders = project.contextFolders
  return [
    ...(project.rules ? [project.rules.source] : []),
    ...(folders.databases || project.tables.length > 0 ? ['databases/'] : []),
    ...(['docs', 'semantics', 'repos', 'queries'] as const).filter((name) => folders[name]).map((name) => `${name}/`)
  ]
}

function RulesPart({ source }: { source: string }) {
  return (
    <ListItem>
      <Bold>{source}</Bold>: the user's standing rules for this project (also quoted below under User Rules).
    </ListItem>
  )
}

function FolderPart({ name, children }: { name: string; children: string }) {
  return (
    <ListItem>
      <Bold>{name}</Bold>: {children}
    </ListItem>
  )
}

function DatabasesPart() {
  return (
    <>
      <ListItem>
        <Bold>databases/</Bold>: one folder per synced table, at{' '}
        <Code>{'databases/type=<engine>/database=<database>/schema=<schema>/table=<table>/'}</Code>.{' '}
        <Code>type=</Code> is the database engine (it decides the SQL dialect), <Code>database=</Code> the database
        the connection points to, <Code>schema=</Code> the schema and <Code>table=</Code> the table. A table folder
        may hold:
      </ListItem>
      <List>
        <ListItem>
          <Code>columns.md</Code>: the column names and types. Read it before writing SQL on the table; never guess a
          column name.
        </ListItem>
        <ListItem>
          <Code>preview.md</Code>: a few sample rows showing what values look like. It is a tiny sample: never infer
          distributions, totals or ranges from it.
        </ListItem>
        <ListItem>
          <Code>description.md</Code>: what the table holds and how it is used.
        </ListItem>
        <ListItem>
          <Code>annotations.md</Code>: notes written by people who know the data. When they disagree with any other
          file, annotations.md wins.
        </ListItem>
        {/* Said whether or not a table has one: knowing would take a listing of every table folder, which a big
            project's first prompt (and `glassbox prompt`) does without. */}
        <ListItem>
          <Code>indexes.md</Code>, where there is one: the table's sorting, partition and index keys; filter on them to
          keep queries fast.
        </ListItem>
      </List>
    </>
  )
}
