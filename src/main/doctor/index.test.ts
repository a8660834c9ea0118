import { describe, expect, it } from 'vitest'
import { DOCTOR_CHECKS, formatReport, runDoctor } from '.'
import { projectParses } from './project-checks'
import { fail, pass, warn } from './types'

// The report itself: checks run in order, a check that throws is one ✗ (the rest still run), a warning never
// fails the report, and the text form puts each fix under its line.

/** The checks below read nothing from it. */
const context = {}

describe('runDoctor', () => {
  it('runs every check in order; one that throws becomes a ✗ line and the next still runs', async () => {
    const report = await runDoctor(context, [
      { name: 'first', check: async () => [pass('a', 'First', 'fine')] },
      { name: 'broken', check: async () => Promise.reject(new Error('boom\nstack')) },
      { name: 'last', check: async () => [warn('c', 'Last', 'worth knowing', 'do this')] }
    ])
    expect(report).toEqual({
      ok: false,
      lines: [
        { id: 'a', title: 'First', status: 'pass', detail: 'fine' },
        { id: 'broken', title: 'Check broken', status: 'fail', detail: 'the check itself failed: boom', fix: 'Run it again; if it keeps failing, report it with this line.' },
        { id: 'c', title: 'Last', status: 'warn', detail: 'worth knowing', fix: 'do this' }
      ]
    })
  })

  it('passes with warnings, and prints each fix (over several lines) under its line', async () => {
    const ok = await runDoctor(context, [{ name: 'x', check: async () => [pass('a', 'A', 'fine'), warn('b', 'B', 'note', 'first\nsecond')] }])
    expect(ok.ok).toBe(true)
    expect(formatReport(ok)).toBe('✓ A: fine\n! B: note\n    fix: first\n         second\nEverything Glassbox needs is in place.\n')
    const bad = await runDoctor(context, [{ name: 'x', check: async () => [fail('a', 'A', 'broken', 'mend it')] }])
    expect(formatReport(bad)).toBe('✗ A: broken\n    fix: mend it\n1 problem to fix.\n')
  })

  it('lists the checks a set-up needs, in the order the report shows them', () => {
    expect(DOCTOR_CHECKS.map((entry) => entry.name)).toEqual(['project', 'tests', 'approvals', 'databases', 'mcp servers', 'model servers', 'store'])
  })
})

describe('the project check', () => {
  it('counts tables and skills in the right number', async () => {
    const snapshot = (tables: number, skills: number) => ({ root: '/p', diagnostics: [], tables: Array.from({ length: tables }), skills: Array.from({ length: skills }) })
    const detail = async (tables: number, skills: number) => (await projectParses({ snapshot: snapshot(tables, skills) } as never))[0].detail
    expect(await detail(1, 1)).toBe('/p: 1 table, 1 skill, no problems')
    expect(await detail(1200, 0)).toBe('/p: 1,200 tables, 0 skills, no problems')
  })
})
