import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import type { RequestMessage } from '../../shared/prompt'

/** The request messages, exactly as assembled, in LangChain's form for ChatOpenAI. */
export function toLangChainMessages(messages: readonly RequestMessage[]): BaseMessage[] {
  return messages.map((message) => {
    const content = typeof message.content === 'string' ? message.content : message.content.map((part) => ({ ...part }))
    switch (message.role) {
      case 'system':
        return new SystemMessage({ content: textOf(message.content) })
      case 'user':
        return new HumanMessage({ content })
      case 'assistant':
        return new AIMessage({
          content: textOf(message.content),
          tool_calls: (message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name, args: call.args, type: 'tool_call' as const }))
        })
      case 'tool':
        return new ToolMessage({ content: textOf(message.content), tool_call_id: message.toolCallId ?? '' })
    }
  })
}

export function textOf(content: RequestMessage['content']): string {
  if (typeof content === 'string') return content
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('')
}
