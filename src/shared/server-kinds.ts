/** The kinds of model server Glassbox knows (each with its default port), or any other ('custom'). */
export const SERVER_KINDS = ['ollama', 'llama.cpp', 'lmstudio', 'vllm', 'jan', 'custom'] as const
export type ServerKind = (typeof SERVER_KINDS)[number]
