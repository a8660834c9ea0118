import { isBroken, loadTestCases } from '../eval/test-cases'
import { fail, pass, warn, type DoctorCheck } from './types'
import { plural } from '../../shared/format-count'

/** The project folder parses: every file Glassbox reads is understood (the inspector's diagnostics). */
export const projectParses: DoctorCheck = async ({ snapshot }) => {
  const title = 'Project files parse'
  if (snapshot.diagnostics.length === 0) {
    const counts = `${plural(snapshot.tables.length, 'table')}, ${plural(snapshot.skills.length, 'skill')}`
    return [pass('project', title, `${snapshot.root}: ${counts}, no problems`)]
  }
  return snapshot.diagnostics.map((diagnostic) => fail('project', title, `${diagnostic.file}: ${diagnostic.problem}`, `Fix ${diagnostic.file} (the Diagnostics tab of the inspector shows the same).`))
}

/** Every tests/*.yml is a case `glassbox test` can run. */
export const testCasesParse: DoctorCheck = async ({ root }) => {
  const title = 'Test cases'
  const cases = await loadTestCases(root)
  if (cases.length === 0) return [warn('tests', title, 'tests/ holds no case, so `glassbox test` has nothing to check', 'Save a good answer as a test case (👍 → Save as test case), or run `glassbox init` for an example.')]
  const broken = cases.filter(isBroken)
  if (broken.length === 0) return [pass('tests', title, `${plural(cases.length, 'case')} in tests/`)]
  return broken.map((item) => fail('tests', title, item.error, `Fix ${item.file}: it needs name, prompt and sql.`))
}
