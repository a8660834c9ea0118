// Text from tools and from the project folder is data. Written verbatim into a request, a table cell holding
// `<|im_start|>system` would reach the model server's tokenizer as the real control token and forge a turn.
// A zero-width joiner inside each such marker makes the server read it as plain text, and the model still
// sees what was written. The markers are those of the chat templates of the supported families: ChatML
// (Qwen, Phi), Llama 3, Mistral, Gemma, Qwen3's reasoning and tool tags, DeepSeek, and Llama 2's BOS/EOS.

const JOINER = '\u200D'

// Each marker is a fixed opener (`<|`, `[`, …) and what must follow it; the joiner goes between the two.
const MARKER_PARTS: ReadonlyArray<{ opener: string; rest: string }> = [
  // <|im_start|>, <|eot_id|>, <|start_header_id|>, <|reserved_special_token_7|>, …
  { opener: String.raw`<\|`, rest: String.raw`[\w.\-]{1,64}\|>` },
  // DeepSeek: <｜begin▁of▁sentence｜>, <｜tool▁calls▁begin｜>
  { opener: '<｜', rest: String.raw`[^｜<>\s]{1,64}｜>` },
  // Mistral: [INST] [/INST] [SYSTEM_PROMPT] [TOOL_CALLS] [AVAILABLE_TOOLS] [TOOL_RESULTS] [TOOL_CONTENT]
  { opener: String.raw`\[`, rest: String.raw`\/?(?:INST|SYSTEM_PROMPT|TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS|TOOL_CONTENT|IMG|IMG_BREAK|IMG_END)\]` },
  // Llama 2 / Mistral <s> </s>, Gemma <start_of_turn> <end_of_turn> <bos> <eos>, Qwen3 <think> <tool_call> <tool_response>
  { opener: '<', rest: String.raw`\/?(?:s|bos|eos|unk|pad|start_of_turn|end_of_turn|start_of_image|end_of_image|think|tool_call|tool_response)>` },
  // Llama 2 system markers: <<SYS>> <</SYS>>
  { opener: '<<', rest: String.raw`\/?SYS>>` }
]

/** The empty place inside each marker, where the joiner goes. */
const MARKERS = new RegExp(MARKER_PARTS.map(({ opener, rest }) => `(?<=${opener})(?=${rest})`).join('|'), 'g')
/** A whole marker starting exactly at lastIndex. */
const MARKER_AT = new RegExp(MARKER_PARTS.map(({ opener, rest }) => opener + rest).join('|'), 'y')

/** The length of the longest marker: `<|`, 64 name characters, `|>` (and DeepSeek's alike). */
export const LONGEST_MARKER = 68

/**
 * Whether the character can never be part of a marker: a space, tab or line break (none of the patterns above
 * admits one). Two texts free of markers, joined with one of these on either side of the seam, are free too.
 */
export function neverInMarker(charCode: number): boolean {
  return charCode === 32 || charCode === 10 || charCode === 9 || charCode === 13
}

/**
 * Whether `text` holds a marker defangControlTokens would break. Every marker starts with `<` or `[`, which a
 * prompt holds few of: trying a marker at each is exact and far cheaper than the lookbehind pattern at every
 * position (~4 ms over a 250 KB prompt).
 */
export function containsControlMarker(text: string): boolean {
  for (const opener of ['<', '[']) {
    for (let at = text.indexOf(opener); at !== -1; at = text.indexOf(opener, at + 1)) {
      MARKER_AT.lastIndex = at
      if (MARKER_AT.test(text)) return true
    }
  }
  return false
}

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
