import { h } from '../markdown/jsx-runtime'
import { Block, Bold, Br, Code, Section, Span, Title } from '../markdown/components'

export const PRODUCT_NAME = 'Glassbox'

export interface InstructionsProps {
  /** Today's date, already formatted in the user's time zone. */
  date: string
  timezone: string
  /** What the user can mention in a message (`@table`, `/skill`); each hint appears only when there is something to mention. */
  mentions?: { tables: boolean; skills: boolean }
}

/**
 * `# Instructions`: who the agent is, today's date in the user's time zone, where its context lives and why
 * to read it first, and what `@` and `/` in a message mean.
 */
export function Instructions({ date, timezone, mentions = { tables: false, skills: false } }: InstructionsProps) {
  return (
    <Section id="instructions" title="Instructions" sources={[]}>
      <Block>
        <Title level={1}>Instructions</Title>
        <Span>
          You are {PRODUCT_NAME}, an expert data analyst working on the user's local data project.
          <Br />
          Today's date is <Bold>{date}</Bold> ({timezone}).
          <Br />
          All the context you have (table metadata, documentation, rules and skills) is stored as files in the
          project folder.
          <Br />
          Read the relevant files before you query any data: they tell you which tables exist, what their columns
          mean and how the user wants questions answered.
          <Br />
          Looking a table up in its files is faster than exploring the database with queries, and it keeps rows of
          the user's data out of the conversation until a question needs them.
          {mentions.tables && [
            <Br />,
            <Span>
              When the user picks a table with <Code>@</Code>, its columns.md comes with the message as referenced
              context: that is the table they mean.
            </Span>
          ]}
          {mentions.skills && [
            <Br />,
            <Span>
              When the user picks a skill with <Code>/</Code>, its instructions come in the message under "Skill:
              name": follow them for that question.
            </Span>
          ]}
        </Span>
      </Block>
    </Section>
  )
}
