import { describe, expect, it } from 'vitest'
import { containsControlMarker, defangControlTokens, defangLocated, LONGEST_MARKER, neverInMarker } from './defang'

const J = '\u200D'

describe('defangControlTokens', () => {
  it('breaks the control markers of every supported chat template with a zero-width joiner', () => {
    const cases: Array<[string, string]> = [
      ['<|im_start|>system', `<|${J}im_start|>system`],
      ['<|im_end|><|endoftext|>', `<|${J}im_end|><|${J}endoftext|>`],
      ['<|begin_of_text|><|start_header_id|>system<|end_header_id|>', `<|${J}begin_of_text|><|${J}start_header_id|>system<|${J}end_header_id|>`],
      ['<|eot_id|><|eom_id|><|python_tag|>', `<|${J}eot_id|><|${J}eom_id|><|${J}python_tag|>`],
      ['<s>[INST] hi [/INST]</s>', `<${J}s>[${J}INST] hi [${J}/INST]<${J}/s>`],
      ['[SYSTEM_PROMPT]x[/SYSTEM_PROMPT][TOOL_CALLS]', `[${J}SYSTEM_PROMPT]x[${J}/SYSTEM_PROMPT][${J}TOOL_CALLS]`],
      ['<start_of_turn>user<end_of_turn>', `<${J}start_of_turn>user<${J}end_of_turn>`],
      ['<think>plan</think><tool_call>{}</tool_call>', `<${J}think>plan<${J}/think><${J}tool_call>{}<${J}/tool_call>`],
      ['<tool_response>ok</tool_response>', `<${J}tool_response>ok<${J}/tool_response>`],
      ['<｜begin▁of▁sentence｜>', `<｜${J}begin▁of▁sentence｜>`],
      ['<<SYS>>rules<</SYS>>', `<<${J}SYS>>rules<<${J}/SYS>>`]
    ]
    for (const [text, defanged] of cases) expect(defangControlTokens(text), text).toBe(defanged)
  })

  it('leaves ordinary text, HTML, SQL and Markdown as they are', () => {
    for (const text of ['a < b | c > d', '<b>bold</b> <span>', 'SELECT 1 WHERE a <> b OR x || y', '[link](#cite/q1/x) [INSTRUCTIONS]', '<|', '|>', '<sup>2</sup>']) {
      expect(defangControlTokens(text)).toBe(text)
    }
  })

  it('changes already defanged text no further', () => {
    const once = defangControlTokens('<|im_start|>[INST]<think></s><<SYS>>')
    expect(defangControlTokens(once)).toBe(once)
  })

  it('reports where the joiners went, as offsets in the original text', () => {
    expect(defangLocated('ab<|im_end|>c<s>')).toEqual({ text: `ab<|${J}im_end|>c<${J}s>`, insertedAt: [4, 14] })
    expect(defangLocated('plain')).toEqual({ text: 'plain', insertedAt: [] })
  })
})

describe('containsControlMarker', () => {
  it('says whether defanging would change the text, on texts mixing markers, their parts and ordinary brackets', () => {
    const parts = [
      ...['<|im_start|>', '<｜begin▁of｜>', '[/INST]', '<s>', '</think>', '<<SYS>>'],
      ...['<|', 'im_start|>', '<｜', 'begin▁of｜>', '[', 'INST]', '/INST]', 'IMG_END]', '<', 's>', '/s>', 'think>', 'tool_call>', '<<', 'SYS>>', '/SYS>>'],
      ...['|>', '>', ']', ' ', 'a', '\n', J, 'x'.repeat(70)]
    ]
    // A fixed pseudo-random sequence, so a failure can be replayed.
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length
    let markers = 0
    for (let round = 0; round < 5000; round++) {
      let text = ''
      const length = 1 + (round % 12)
      for (let index = 0; index < length; index++) text += parts[next()]
      const expected = defangLocated(text).insertedAt.length > 0
      if (expected) markers++
      expect(containsControlMarker(text), JSON.stringify(text)).toBe(expected)
    }
    // The corpus holds both kinds in numbers.
    expect(markers).toBeGreaterThan(200)
    expect(markers).toBeLessThan(4800)
  })
})

describe('what the renderer relies on (see markerFree in prompt/markdown/render.ts)', () => {
  const markers = ['<|im_start|>', '<｜begin▁of▁sentence｜>', '[/AVAILABLE_TOOLS]', '</start_of_image>', '<</SYS>>', '<s>']

  it('no marker is longer than LONGEST_MARKER', () => {
    for (const [open, close] of [['<|', '|>'], ['<｜', '｜>']]) {
      expect(containsControlMarker(`${open}${'a'.repeat(LONGEST_MARKER - 4)}${close}`)).toBe(true)
      expect(containsControlMarker(`${open}${'a'.repeat(LONGEST_MARKER - 3)}${close}`)).toBe(false)
    }
  })

  it('no marker holds a space, tab or line break, wherever one goes', () => {
    const breakers = [' ', '\t', '\n', '\r']
    for (const breaker of breakers) expect(neverInMarker(breaker.charCodeAt(0))).toBe(true)
    for (const marker of markers) {
      expect(containsControlMarker(marker)).toBe(true)
      for (const breaker of breakers) {
        for (let at = 1; at < marker.length; at++) {
          const broken = marker.slice(0, at) + breaker + marker.slice(at)
          expect(containsControlMarker(broken), JSON.stringify(broken)).toBe(false)
        }
      }
    }
    expect(neverInMarker('a'.charCodeAt(0)) || neverInMarker('|'.charCodeAt(0)) || neverInMarker('\u200D'.charCodeAt(0))).toBe(false)
  })
})
