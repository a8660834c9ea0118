import { parse, stringify } from 'yaml'

// What the bundled command line gives gray-matter in place of js-yaml (scripts/cli-bundle.mjs): gray-matter
// loads its default YAML engine, js-yaml 3 with esprima behind it, the moment it loads, although Glassbox
// always passes its own engines (project/skills.ts). Backed by `yaml`, the app's one YAML parser, so
// gray-matter still works if anything ever uses its defaults.

export function safeLoad(text: string): unknown {
  return parse(text)
}

export function safeDump(value: unknown): string {
  return stringify(value)
}
