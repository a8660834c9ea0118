// The built-in user prompt (Handlebars). Kept as a TS string so it survives bundling and runs under tsx,
// vitest and electron-vite alike. `{{{…}}}` everywhere: a prompt is not HTML, nothing may be escaped.
// Standalone `{{#if}}` / `{{/if}}` / `{{> partial}}` lines vanish with their newline, so each optional block
// carries its own leading blank line and the result has exactly one blank line between blocks.

export const userPromptTemplate = [
  'The user provided the context below (metadata only). Use it to understand the task and answer the question.',
  '{{#if hasResultsMeta}}',
  '',
  '{{> previous-results}}',
  '{{/if}}',
  '',
  '```json',
  '{{{contextJson}}}',
  '```',
  '{{#if showVisionWarning}}',
  '',
  '{{> vision-note}}',
  '{{/if}}',
  '',
  'Question: {{{query}}}'
].join('\n')
