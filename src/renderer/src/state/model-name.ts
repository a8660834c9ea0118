// A model's name as a person reads it. llama.cpp serves a model under the path it was loaded from
// (`/models/qwen2.5-7b-instruct-q4_k_m.gguf`), which a picker would cut off before the name; the full id
// stays in the tooltip.

export function modelName(id: string): string {
  const last = id.split(/[\\/]/).filter((part) => part !== '').pop() ?? id
  return last.replace(/\.gguf$/i, '') || id
}
