import { h } from '../markdown/jsx-runtime'
import { Block, Bold, Br, Section, Span, Title } from '../markdown/components'

export const PRODUCT_NAME = 'Glassbox'

/** `# Instructions`: who the agent is, today's date in the user's time zone, where its context lives. */
export function Instructions({ date, timezone }: { date: string; timezone: string }) {
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
        </Span>
      </Block>
    </Section>
  )
}
