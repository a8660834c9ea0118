// The user prompt: Handlebars templates, the metadata-only context block and the prompt built from them.
export {
  buildUserPrompt,
  renderUserPrompt,
  userPromptRenderer,
  userPromptVariables,
  type BuildUserPromptOptions,
  type RenderedUserPrompt,
  type UserPromptRenderer
} from './build-user-prompt'
export { PromptTemplate, TemplateError, resolveUserPromptTemplate, type ResolvedTemplate, type UserPromptVariables } from './prompt-template'
export {
  hasContext,
  type ArchivedRef,
  type ContextBlock,
  type FileMeta,
  type ResultMeta,
  type ToolCallMeta
} from './context-block'
export { AttachmentError, describeAttachment, describeAttachments, type DescribeAttachmentOptions } from './attachments'
export { buildContextBlock, describeResult, EMPTY_RESULT_SUMMARY, type ContextBlockInput, type EarlierResult } from './results'
export { extractSummary, SUMMARY_LIMIT_TOKENS, TRUNCATION_PREFIX } from './summary'
