import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { precompiledModule } from '../src/main/prompt/user/templates/precompile'

// `npm run templates`: writes the precompiled built-in user-prompt templates after one of them changed.
const target = join(import.meta.dirname, '..', 'src', 'main', 'prompt', 'user', 'templates', 'precompiled.ts')
writeFileSync(target, precompiledModule())
process.stdout.write(`Wrote ${target}\n`)
