import { expect, it } from 'vitest'
import { expandColumnChoices } from './column-choices'

it('turns a braced column list into one SQL per non-empty subset, GROUP BY {} following', () => {
  expect(expandColumnChoices('SELECT {a.name, a.aid}, COUNT(*) FROM author a GROUP BY {}')).toEqual([
    'SELECT a.name, COUNT(*) FROM author a GROUP BY a.name',
    'SELECT a.aid, COUNT(*) FROM author a GROUP BY a.aid',
    'SELECT a.name, a.aid, COUNT(*) FROM author a GROUP BY a.name, a.aid'
  ])
})

it('leaves SQL without choices, struct literals and braces in strings alone', () => {
  expect(expandColumnChoices('SELECT name FROM author')).toEqual(['SELECT name FROM author'])
  expect(expandColumnChoices("SELECT {'a': 1} AS s")).toEqual(["SELECT {'a': 1} AS s"])
  expect(expandColumnChoices("SELECT '{a, b}' AS text")).toEqual(["SELECT '{a, b}' AS text"])
})
