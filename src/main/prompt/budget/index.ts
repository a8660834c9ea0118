// Fitting the whole request into the model's context window, with every trim recorded.
export {
  fitRequest,
  type FitRequestInput,
  type FittedRequest,
  type SkillListItem,
  type SystemPromptParts
} from './fit-request'
export {
  ContextWindowTooSmallError,
  DEFAULT_SAFETY_MARGIN_RATIO,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  messageTokens,
  type MinimalRequest,
  type TokenCounter
} from './costs'
export { splitIntoTurns, type ArchiveTarget } from './history'
export { SUMMARY_LEFT_OUT } from './summaries'
