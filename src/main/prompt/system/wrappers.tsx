import { h } from '../markdown/jsx-runtime'
import { Block, Bold, List, ListItem, Quote, Rendered, Section, Span, Title } from '../markdown/components'
import type { LocatedText } from '../markdown/render'

// Wrappers around an already rendered prompt, which they insert as-is (its section map shifts with it).

const CHANNEL_NAMES: Record<string, string> = {
  whatsapp: 'WhatsApp',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  telegram: 'Telegram',
  discord: 'Discord',
  mattermost: 'Mattermost'
}

export function channelDisplayName(channel: string): string {
  return CHANNEL_NAMES[channel.toLowerCase()] ?? channel
}

/** The base prompt, then how to reply on a messaging channel: plain text for WhatsApp, a three-step flow elsewhere. */
export function MessagingProviderSystemPrompt({ basePrompt, channel }: { basePrompt: LocatedText; channel: string }) {
  const isWhatsApp = channel.toLowerCase() === 'whatsapp'
  return (
    <Block>
      <Rendered result={basePrompt} />
      <Section id="channel" title={`${channelDisplayName(channel)} Replies`} sources={[]}>
        {isWhatsApp ? <WhatsAppReplies /> : <ChannelResponseFlow channel={channelDisplayName(channel)} />}
      </Section>
    </Block>
  )
}

function WhatsAppReplies() {
  return (
    <Block>
      <Title level={1}>WhatsApp Replies</Title>
      <Span>You are answering on WhatsApp, which shows plain text only. These rules override the formatting rules above.</Span>
      <List>
        <ListItem>
          Write plain text: no Markdown headings, tables, links, bullet symbols, citation tags or HTML.
        </ListItem>
        <ListItem>
          <Bold>Conclusion first</Bold>: the answer or the key number on the first line, then at most a few short
          lines of support.
        </ListItem>
        <ListItem>Do not announce a plan or narrate tool calls: run the tools silently, then reply once.</ListItem>
        <ListItem>Keep it short: the user reads this on a phone. Explain a metric only when asked.</ListItem>
      </List>
    </Block>
  )
}

function ChannelResponseFlow({ channel }: { channel: string }) {
  return (
    <Block>
      <Title level={1}>Replying in {channel}</Title>
      <Span>You are answering a user in {channel}. Follow this flow for every request:</Span>
      <List ordered>
        <ListItem>
          <Bold>Plan</Bold>: one to three plain sentences on what you are going to do, before any tool call.
        </ListItem>
        <ListItem>
          <Bold>Execute silently</Bold>: make every tool call without commentary in between, independent calls in
          parallel; do not report intermediate results.
        </ListItem>
        <ListItem>
          <Bold>Output</Bold>: the findings first, then the tables used and, for each metric shown, its definition,
          calculation, filters and period.
        </ListItem>
      </List>
    </Block>
  )
}

/** The base prompt, then the passage a forked chat started from, which the model should focus on. */
export function ChatForkContextPrompt({ basePrompt, selection }: { basePrompt: LocatedText; selection: string }) {
  return (
    <Block>
      <Rendered result={basePrompt} />
      <Section id="fork-selection" title="Selection Context" sources={[]}>
        <Block>
          <Title>Selection Context</Title>
          <Span>
            This chat was forked from an earlier conversation. The user selected the passage below: focus on it, and
            use the rest of the earlier conversation only as background.
          </Span>
          <Quote>{selection}</Quote>
        </Block>
      </Section>
    </Block>
  )
}
