import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseSkill } from '../src/main/project/skills'

/** What any prompt with these parts must do once: read RULES.md, read every skill and parse its front matter. */
export function readRulesAndSkillFrontMatter(root: string): void {
  readFileSync(join(root, 'RULES.md'), 'utf8')
  const skills = join(root, 'agent', 'skills')
  for (const name of readdirSync(skills)) parseSkill(`agent/skills/${name}`, readFileSync(join(skills, name), 'utf8'))
}
