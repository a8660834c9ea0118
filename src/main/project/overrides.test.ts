import { describe, expect, it } from 'vitest'
import { templateSyntaxProblems } from './overrides'

const SYSTEM = 'agent/prompts/system.md'

describe('templateSyntaxProblems', () => {
  it('names the line of each unbalanced block', () => {
    const text = 'Intro\n{{#each tables}}\n- {{name}}\n{{/if}}\n\n{{#with x}}\n{{ nao_prompt }}\n'
    expect(templateSyntaxProblems(SYSTEM, text).map((problem) => problem.problem)).toEqual([
      'line 4: `{{/if}}` closes a block that was not opened (`{{#each` is open)',
      'line 6: `{{#with` is never closed (no `{{/with}}`)',
      'contains template syntax (`{{#each tables}}`, `{{name}}`, `{{/if}}`) that is not a placeholder: this file is sent to the model as written — only {{ nao_prompt }} and {{ nao_prompt.<section_id> }} are replaced'
    ])
  })

  it('lists 20 block problems of a file full of them, then how many more', () => {
    const problems = templateSyntaxProblems(SYSTEM, '{{#a}}\n'.repeat(1000))
    expect(problems).toHaveLength(22)
    expect(problems[19]).toEqual({ file: SYSTEM, problem: 'line 20: `{{#a` is never closed (no `{{/a}}`)' })
    expect(problems[20]).toEqual({ file: SYSTEM, problem: '980 more unbalanced blocks' })
  })

  // Bounded by CPU time: counting lines from the start for every tag took 46 s on this 420 KB file.
  it('checks a file of 60,000 tags in linear time', { timeout: 60_000 }, () => {
    const text = '{{#a}}\n'.repeat(60_000)
    const before = process.cpuUsage()
    const problems = templateSyntaxProblems(SYSTEM, text)
    const cpu = process.cpuUsage(before)
    expect((cpu.user + cpu.system) / 1000, 'CPU milliseconds').toBeLessThan(2_000)
    expect(problems.at(-2)).toEqual({ file: SYSTEM, problem: '59,980 more unbalanced blocks' })
  })
})
