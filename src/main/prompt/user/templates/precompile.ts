import Handlebars from 'handlebars'
import { builtInPartials, builtInTemplates, COMPILE_OPTIONS } from './index'

// The built-in templates and partials, precompiled. A prompt renders them with the Handlebars runtime alone;
// the compiler (about five times its size) loads only for a project's own template. The output is kept in
// precompiled.ts (`npm run templates` writes it) and prompt-template.test.ts checks that it is current.

export function precompileBuiltIns(): { templates: Record<string, string>; partials: Record<string, string> } {
  const precompile = (texts: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, String(Handlebars.precompile(text, COMPILE_OPTIONS))]))
  return { templates: precompile(builtInTemplates), partials: precompile(builtInPartials) }
}

/** The text of precompiled.ts for the current templates. */
export function precompiledModule(): string {
  const { templates, partials } = precompileBuiltIns()
  return [
    '// Written by `npm run templates` (src/main/prompt/user/templates/precompile.ts) from the templates beside it;',
    '// do not edit. Each entry is the JavaScript Handlebars.precompile makes, for the runtime to instantiate.',
    '',
    `export const precompiledTemplates: Readonly<Record<string, string>> = ${JSON.stringify(templates, null, 2)}`,
    '',
    `export const precompiledPartials: Readonly<Record<string, string>> = ${JSON.stringify(partials, null, 2)}`,
    ''
  ].join('\n')
}
