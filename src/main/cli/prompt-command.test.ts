import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { copyNaoLayout, makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { runCli } from '../../../test/support/capture-io'
import { createAgentTools } from '../agent/tools'
import { toolSchemaTokens } from '../app/prompt-assembly'
import { messageTokens } from '../prompt/budget/costs'
import { countTokens } from '../prompt/tokens'

// `glassbox prompt` as people and scripts call it (in-process, same dispatcher as the binary).

const cli = runCli

describe('glassbox prompt', () => {
  let data: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    data = makeTempDir()
  })
  afterEach(() => data.cleanup())

  async function promptJson(...args: string[]) {
    const result = await cli(['prompt', '--data-dir', data.dir, '--now', '2026-03-01T10:00:00Z', '--timezone', 'UTC', '--json', ...args])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    // One line, as every --json prints, so a script can read it line by line.
    expect(result.stdout.indexOf('\n')).toBe(result.stdout.length - 1)
    return JSON.parse(result.stdout)
  }

  it('prints every key of the --json contract for the nao-layout fixture', async () => {
    const output = await promptJson('--project', NAO_LAYOUT)
    expect(Object.keys(output).sort()).toEqual(['budget', 'diagnostics', 'memory', 'messages', 'overrideMode', 'sections', 'system', 'user'])
    expect(output.overrideMode).toBe('default')
    for (const heading of ['# Instructions', '## Persona', '## Tool Calls', '## SQL Query Rules', '## User Rules', '## Current User Connections']) {
      expect(output.system).toContain(heading)
    }
    expect(output.system).toContain('DuckDB')
    expect(output.system).toContain('jaffle_shop')
    expect(output.system).toContain('clarification')
    expect(output.sections.every((section: { tokens: number }) => section.tokens > 0)).toBe(true)
  })

  it('drops the clarification rule in test mode', async () => {
    const output = await promptJson('--project', NAO_LAYOUT, '--test-mode')
    expect(output.system).not.toContain('clarification')
  })

  it('wraps the prompt for a messaging channel', async () => {
    const plain = await promptJson('--project', NAO_LAYOUT)
    const whatsapp = await promptJson('--project', NAO_LAYOUT, '--channel', 'whatsapp')
    expect(whatsapp.system).not.toBe(plain.system)
    expect(whatsapp.system.toLowerCase()).toContain('whatsapp')
  })

  it('keeps the question byte-identical when there is no context', async () => {
    const question = 'a < b & "c" {{x}} `y`'
    const output = await promptJson('--project', NAO_LAYOUT, '--question', question)
    expect(output.user).toBe(question)
    expect(output.messages.at(-1)).toEqual({ role: 'user', content: question })
  })

  it('puts an attached image in the context block with the vision note', async () => {
    const copy = copyNaoLayout()
    try {
      const image = join(copy.dir, 'docs', 'chart.png')
      mkdirSync(join(copy.dir, 'docs'), { recursive: true })
      writeFileSync(image, Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d0f1ef0000000049454e44ae426082', 'hex'))
      const output = await promptJson('--project', copy.dir, '--question', 'a < b', '--attach', image)
      expect(output.user).toContain('```json')
      expect(output.user).toContain('"type": "image/png"')
      expect(output.user.toLowerCase()).toContain('vision')
      expect(output.user.endsWith('Question: a < b')).toBe(true)
    } finally {
      copy.cleanup()
    }
  })

  describe('--attach obeys the agent tools\' visibility rules (#11 B9)', () => {
    let copy: ReturnType<typeof copyNaoLayout>
    beforeEach(() => {
      copy = copyNaoLayout()
      mkdirSync(join(copy.dir, '.git'), { recursive: true })
      writeFileSync(join(copy.dir, '.git', 'config'), 'SECRET-GIT-LINE url=https://token@example.invalid\n')
      writeFileSync(join(copy.dir, '.naoignore'), 'private/\n')
      mkdirSync(join(copy.dir, 'private'), { recursive: true })
      writeFileSync(join(copy.dir, 'private', 'salaries.csv'), 'SECRET-SALARY-HEADER,amount\n')
      writeFileSync(join(data.dir, 'outside.txt'), 'SECRET-OUTSIDE-LINE\n')
    })
    afterEach(() => copy.cleanup())

    for (const [what, file] of [
      ['a file under .git/', () => join(copy.dir, '.git', 'config')],
      ['a file hidden by .naoignore', () => join(copy.dir, 'private', 'salaries.csv')],
      ['a file outside the project', () => join(data.dir, 'outside.txt')]
    ] as const) {
      it(`refuses ${what}, and nothing of it is printed`, async () => {
        const result = await cli(['prompt', '--data-dir', data.dir, '--project', copy.dir, '--json', '--question', 'q', '--attach', file()])
        expect(result.code).toBe(1)
        expect(result.stderr).toMatch(/^glassbox prompt: .*(hidden from the agent|outside the project)/)
        expect(result.stdout + result.stderr).not.toMatch(/SECRET/)
      })
    }
  })

  it('shows each budget part against the context window', async () => {
    const output = await promptJson('--project', NAO_LAYOUT, '--question', 'How many orders?')
    // No server answers here, so the window and the output reserve are the defaults and the scale is 1.
    expect(output.budget.contextWindow).toBe(8192)
    expect(output.budget.reservedOutput).toBe(2048)
    expect(output.budget.parts).toEqual([
      { name: 'system', tokens: messageTokens({ role: 'system', content: output.system }, countTokens) },
      { name: 'tools', tokens: toolSchemaTokens(createAgentTools()) },
      { name: 'history', tokens: 0 },
      { name: 'user', tokens: messageTokens({ role: 'user', content: output.user }, countTokens) },
      { name: 'output', tokens: 2048 }
    ])
    expect(output.budget.used).toBe(output.budget.parts.reduce((sum: number, part: { tokens: number }) => sum + part.tokens, 0))
  })

  it('tells the sections so that they add up to the system prompt in the budget, nested ones indented', async () => {
    await cli(['memory', 'add', '--project', NAO_LAYOUT, '--data-dir', data.dir, '--category', 'global_rule', 'Always show revenue in EUR.'])
    const result = await cli(['prompt', '--project', NAO_LAYOUT, '--data-dir', data.dir, '--question', 'How many orders?'])
    expect(result.code).toBe(0)
    const text = result.stdout
    const header = /^=== Sections: (\d+) tokens \(estimated\) ===$/m.exec(text)
    expect(header).not.toBeNull()
    const rows = text.slice(header!.index).split('\n\n')[0].split('\n').slice(1)
    const parsed = rows.map((line) => /^( *)(.+?) +(\d+) tokens?( {2}|$)/.exec(line)!)
    expect(parsed.every(Boolean)).toBe(true)
    // A memory lies inside the memory section: indented, and not added again.
    expect(parsed.some(([, indent]) => indent.length > 0)).toBe(true)
    const topLevel = parsed.filter(([, indent]) => indent === '').reduce((sum, match) => sum + Number(match[3]), 0)
    const systemInBudget = Number(/^system +(\d+)$/m.exec(text)![1])
    expect(Number(header![1])).toBe(systemInBudget)
    expect(topLevel).toBe(systemInBudget)
  })

  describe("the fixture's channel prompts", () => {
    it('replaces the prompt for slack (agent/prompts/slack.md has no placeholder)', async () => {
      const output = await promptJson('--project', NAO_LAYOUT, '--channel', 'slack')
      expect(output.overrideMode).toBe('replaced')
      expect(output.system.startsWith('You answer questions about the jaffle shop')).toBe(true)
      expect(output.system).not.toContain('## SQL Query Rules')
    })

    it('wraps the default prompt for teams, and injects one section for telegram', async () => {
      const teams = await promptJson('--project', NAO_LAYOUT, '--channel', 'teams')
      expect(teams.overrideMode).toBe('wrapped')
      expect(teams.system.startsWith('This conversation happens in Microsoft Teams')).toBe(true)
      expect(teams.system).toContain('## SQL Query Rules')
      const telegram = await promptJson('--project', NAO_LAYOUT, '--channel', 'telegram')
      expect(telegram.overrideMode).toBe('wrapped')
      expect(telegram.system).toContain('## SQL Query Rules')
      expect(telegram.system).not.toContain('## Persona')
      expect(telegram.diagnostics).toEqual([])
    })
  })

  describe('project overrides', () => {
    let copy: ReturnType<typeof copyNaoLayout>
    beforeEach(() => {
      copy = copyNaoLayout()
      mkdirSync(join(copy.dir, 'agent', 'prompts'), { recursive: true })
    })
    afterEach(() => copy.cleanup())

    it('replaces the prompt with a file that has no placeholder', async () => {
      writeFileSync(join(copy.dir, 'agent/prompts/system.md'), 'You answer in haiku.\n')
      const output = await promptJson('--project', copy.dir)
      expect(output.overrideMode).toBe('replaced')
      expect(output.system).toBe('You answer in haiku.')
    })

    it('wraps the default prompt around {{ nao_prompt }}', async () => {
      writeFileSync(join(copy.dir, 'agent/prompts/system.md'), 'Company preamble.\n\n{{ nao_prompt }}\n\nSign off.')
      const output = await promptJson('--project', copy.dir)
      expect(output.overrideMode).toBe('wrapped')
      expect(output.system.startsWith('Company preamble.')).toBe(true)
      expect(output.system).toContain('## SQL Query Rules')
      expect(output.system.endsWith('Sign off.')).toBe(true)
    })
  })

  it('shows memories added with the memory command, and says how many were left out', async () => {
    const add = (content: string) =>
      cli(['memory', 'add', '--project', NAO_LAYOUT, '--data-dir', data.dir, '--category', 'global_rule', content])
    expect((await add('Always show revenue in EUR.')).code).toBe(0)
    let output = await promptJson('--project', NAO_LAYOUT)
    expect(output.system).toContain('Always show revenue in EUR.')
    expect(output.memory.included.map((memory: { content: string }) => memory.content)).toEqual(['Always show revenue in EUR.'])

    for (let i = 0; i < 60; i++) await add(`Rule number ${i}: ${'always use the fiscal calendar for quarterly breakdowns '.repeat(3)}`)
    output = await promptJson('--project', NAO_LAYOUT)
    expect(output.memory.dropped.length).toBeGreaterThan(0)
    expect(output.memory.dropped[0].reason).toMatch(/budget/)
    expect(output.system).toContain(String(output.memory.dropped.length))
  })

  it('fails with one clear line for a missing project, and for a file named as one', async () => {
    const result = await cli(['prompt', '--project', join(data.dir, 'nope'), '--data-dir', data.dir])
    expect(result.code).toBe(1)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toContain('project folder not found')
    const file = join(data.dir, 'RULES.md')
    writeFileSync(file, '# rules\n')
    const notFolder = await cli(['prompt', '--project', file, '--data-dir', data.dir])
    expect(notFolder).toMatchObject({ code: 1, stderr: `glassbox prompt: project path is not a folder: ${file}\n` })
  })

  it('finishes fast on a project whose RULES.md is 1 MB of one "word" (#11 B10)', async () => {
    const copy = copyNaoLayout()
    try {
      writeFileSync(join(copy.dir, 'RULES.md'), 'x'.repeat(1024 * 1024))
      const started = Date.now()
      const output = await promptJson('--project', copy.dir, '--question', 'How many orders?')
      expect(Date.now() - started).toBeLessThan(15_000)
      expect(output.sections.find((section: { id: string }) => section.id === 'user-rules').tokens).toBeGreaterThan(100_000)
    } finally {
      copy.cleanup()
    }
  })

  it('reports an unclosed {{#each in agent/prompts/system.md as a diagnostic (#11)', async () => {
    const copy = copyNaoLayout()
    try {
      mkdirSync(join(copy.dir, 'agent', 'prompts'), { recursive: true })
      writeFileSync(join(copy.dir, 'agent/prompts/system.md'), 'Tables:\n{{#each tables}}\n- {{name}}\n\n{{ nao_prompt }}\n')
      const output = await promptJson('--project', copy.dir)
      expect(output.overrideMode).toBe('wrapped')
      expect(output.diagnostics).toContainEqual({ file: 'agent/prompts/system.md', problem: 'line 2: `{{#each` is never closed (no `{{/each}}`)' })
      expect(output.diagnostics).toContainEqual({ file: 'agent/prompts/system.md', problem: expect.stringMatching(/sent to the model as written/) })
    } finally {
      copy.cleanup()
    }
  })
})
