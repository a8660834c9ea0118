// Shown only when the context lists earlier results. Summaries are cut automatically (keyword paragraph or
// tail), so the model is told not to trust them and where the full text is.

export const previousResultsPartial = [
  '## Previous Results',
  'The context lists earlier results in `resultsMeta` (metadata only); the system prompt says how to read them.',
  'A summary is unreliable (it may be cut short): call `read_agent_result` with the `resultId` for the full content when you need it.',
  ''
].join('\n')
