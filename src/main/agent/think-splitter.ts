// Splits streamed content into visible text and reasoning: `<think>…</think>` blocks (DeepSeek-R1, Qwen3
// and others put their reasoning there) may start or end in the middle of any chunk.

export interface ContentPiece {
  kind: 'text' | 'reasoning'
  text: string
}

const OPEN = '<think>'
const CLOSE = '</think>'

export class ThinkSplitter {
  private inThink = false
  private pending = ''

  push(chunk: string): ContentPiece[] {
    const pieces: ContentPiece[] = []
    let buffer = this.pending + chunk
    this.pending = ''
    // Each pass consumes one tag or ends the loop, so it runs at most (tags in buffer + 1) times.
    for (;;) {
      const tag = this.inThink ? CLOSE : OPEN
      const at = buffer.indexOf(tag)
      if (at === -1) {
        const keep = partialTagSuffix(buffer, tag)
        this.emit(pieces, buffer.slice(0, buffer.length - keep))
        this.pending = buffer.slice(buffer.length - keep)
        return pieces
      }
      this.emit(pieces, buffer.slice(0, at))
      buffer = buffer.slice(at + tag.length)
      this.inThink = !this.inThink
    }
  }

  /** What is still held back at the end of the stream (a lone `<thi` is text after all). */
  flush(): ContentPiece[] {
    const pieces: ContentPiece[] = []
    this.emit(pieces, this.pending)
    this.pending = ''
    return pieces
  }

  private emit(pieces: ContentPiece[], text: string): void {
    if (text !== '') pieces.push({ kind: this.inThink ? 'reasoning' : 'text', text })
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagSuffix(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(text.length - length))) return length
  }
  return 0
}
