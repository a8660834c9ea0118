// Text from tools and from the project folder is data. Written verbatim into a request, a table cell holding
// `<|im_start|>system` would reach the model server's tokenizer as the real control token and forge a turn.
// A zero-width joiner inside each such marker makes the server read it as plain text, and the model still
// sees what was written. The markers are those of the chat templates of the supported families: ChatML
// (Qwen, Phi), Llama 3, Mistral, Gemma, Qwen3's reasoning and tool tags, DeepSeek, and Llama 2's BOS/EOS.

const JOINER = '\u200D'

// Each pattern matches the empty place where the joiner goes.
const MARKERS = new RegExp(
  [
    // <|im_start|>, <|eot_id|>, <|start_header_id|>, <|reserved_special_token_7|>, …
    String.raw`(?<=<\|)(?=[\w.\-]{1,64}\|>)`,
    // DeepSeek: <｜begin▁of▁sentence｜>, <｜tool▁calls▁begin｜>
    String.raw`(?<=<｜)(?=[^｜<>\s]{1,64}｜>)`,
    // Mistral: [INST] [/INST] [SYSTEM_PROMPT] [TOOL_CALLS] [AVAILABLE_TOOLS] [TOOL_RESULTS] [TOOL_CONTENT]
    String.raw`(?<=\[)(?=\/?(?:INST|SYSTEM_PROMPT|TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS|TOOL_CONTENT|IMG|IMG_BREAK|IMG_END)\])`,
    // Llama 2 / Mistral <s> </s>, Gemma <start_of_turn> <end_of_turn> <bos> <eos>, Qwen3 <think> <tool_call> <tool_response>
    String.raw`(?<=<)(?=\/?(?:s|bos|eos|unk|pad|start_of_turn|end_of_turn|start_of_image|end_of_image|think|tool_call|tool_response)>)`,
    // Llama 2 system markers: <<SYS>> <</SYS>>
    String.raw`(?<=<<)(?=\/?SYS>>)`
  ].join('|'),
  'g'
)

/** `text` with a zero-width joiner inside every chat-template control marker, so it is sent as plain text. */
export function defangControlTokens(text: string): string {
  return text.replace(MARKERS, JOINER)
}

/**
 * Like defangControlTokens, for text whose parts are located by offsets: also returns where joiners went
 * (offsets in the original text, ascending), so the caller can shift its offsets.
 */
export function defangLocated(text: string): { text: string; insertedAt: number[] } {
  const insertedAt: number[] = []
  for (const match of text.matchAll(MARKERS)) insertedAt.push(match.index)
  return insertedAt.length === 0 ? { text, insertedAt } : { text: text.replace(MARKERS, JOINER), insertedAt }
}
