import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { captureIo } from '../../test/support/capture-io'
import { REPO_ROOT } from '../../test/support/fixtures'
import { COMMAND_USAGE, commandTable, loadCommand, main } from './cli'

// The help is one text in three places: `glassbox --help`, `glassbox <command> --help` and the README's
// command block; and it names exactly the options each command's parser takes.

describe('the command line help', () => {
  it('is the README command block', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('## Command line'))
    const block = /```\n([\s\S]*?)\n```/.exec(section)
    expect(block?.[1]).toBe(commandTable())
  })

  it.each(Object.keys(COMMAND_USAGE))('names exactly the options %s takes', async (name) => {
    const module = (await loadCommand(name)) as unknown as { OPTIONS: Record<string, unknown> }
    const named = new Set([...COMMAND_USAGE[name].join(' ').matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]))
    expect([...named].sort()).toEqual(Object.keys(module.OPTIONS).sort())
  })

  it('prints one command with --help or -h, exit 0, and runs nothing', async () => {
    for (const flag of ['--help', '-h']) {
      const { io, out, err } = captureIo()
      // --project names no folder: had the command run, it would fail.
      expect(await main(['memory', 'add', '--project', '/nowhere/at/all', flag], io)).toBe(0)
      expect(err()).toBe('')
      expect(out()).toBe(
        'Usage: glassbox memory list | add --category C TEXT | edit ID TEXT | disable ID | enable ID | delete ID | on | off\n' +
          '                       --project DIR [--data-dir DIR] [--json]\n'
      )
    }
  })

  it('takes a --help after -- as an argument, not as a wish for help', async () => {
    const { io, out, err } = captureIo()
    expect(await main(['memory', 'list', '--project', '/nowhere/at/all', '--', '--help'], io)).toBe(1)
    expect(out()).toBe('')
    expect(err()).toMatch(/^glassbox memory: /)
  })

  it('lists every command, and says what --trust-project does where a command takes it', async () => {
    const { io, out } = captureIo()
    expect(await main(['--help'], io)).toBe(0)
    expect(out()).toContain(commandTable())
    expect(out()).toContain('--trust-project approves what the project asks beyond its folder')
    const ask = captureIo()
    await main(['ask', '--help'], ask.io)
    expect(ask.out()).toContain('--trust-project approves')
    const models = captureIo()
    await main(['models', '--help'], models.io)
    expect(models.out()).toBe('Usage: glassbox models [--endpoint URL] [--json]\n')
  })
})
