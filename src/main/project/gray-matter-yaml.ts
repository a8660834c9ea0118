import { dump } from 'js-yaml'
import { readYaml } from './yaml'

// What the bundled command line gives gray-matter in place of js-yaml 3 (scripts/cli-bundle.mjs): gray-matter
// loads its default YAML engine, js-yaml 3 with esprima behind it, the moment it loads, although Glassbox
// always passes its own engines (project/skills.ts). Backed by the reader of every other project YAML file
// (project/yaml.ts), so gray-matter still works if anything ever uses its defaults.

export function safeLoad(text: string): unknown {
  return readYaml(text)
}

export function safeDump(value: unknown): string {
  return dump(value)
}
