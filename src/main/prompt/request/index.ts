// The final request: message order, images and prompt-cache marks.
export { buildRequestMessages, EmptyUserPromptError, RECENT_CACHE_MARKS, type BuildRequestInput } from './build-request'
