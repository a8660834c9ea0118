import { expect, it } from 'vitest'
import { parseExtractionOutput } from './parse-extraction'

const nothing = { user_instructions: [], user_profile: [] }

it('reads a plain JSON object, nulls as empty lists', () => {
  expect(parseExtractionOutput('{"user_instructions": null, "user_profile": null}')).toEqual({ ok: true, output: nothing })
})

it('reads JSON inside ```json fences with prose around, and after a <think> block', () => {
  const raw = '<think>maybe {"x": 1}</think>Here you go:\n```json\n{"user_instructions": [{"content": "Always EUR", "supersedes_id": "3"}], "user_profile": null}\n```\nDone.'
  expect(parseExtractionOutput(raw)).toEqual({
    ok: true,
    output: { user_instructions: [{ content: 'Always EUR', supersedes_id: 3 }], user_profile: [] }
  })
})

it('reads an object embedded in a sentence, and a missing supersedes_id as null', () => {
  expect(parseExtractionOutput('Result: {"user_profile": [{"content": "Works in Berlin"}]} hope that helps')).toEqual({
    ok: true,
    output: { user_instructions: [], user_profile: [{ content: 'Works in Berlin', supersedes_id: null }] }
  })
})

it('rejects output that is not JSON', () => {
  expect(parseExtractionOutput('Nothing to remember here!')).toEqual({ ok: false, error: 'no JSON object in the output' })
  expect(parseExtractionOutput('{"user_profile": [')).toEqual({ ok: false, error: 'no JSON object in the output' })
})

it('rejects JSON of the wrong shape, naming the field', () => {
  const wrong = parseExtractionOutput('{"user_instructions": "always EUR", "user_profile": null}')
  expect(wrong.ok).toBe(false)
  expect(wrong.ok ? '' : wrong.error).toMatch(/^JSON of the wrong shape: user_instructions: /)
  const badItem = parseExtractionOutput('{"user_instructions": [{"text": "x"}]}')
  expect(badItem.ok ? '' : badItem.error).toMatch(/user_instructions\.0\.content/)
  expect(parseExtractionOutput('{"answer": "none"}')).toEqual({
    ok: false,
    error: 'JSON of the wrong shape: neither user_instructions nor user_profile is present'
  })
  expect(parseExtractionOutput('[1, 2]').ok).toBe(false)
})
