#!/usr/bin/env node
// The `glassbox` command: runs the CLI's TypeScript sources through tsx, with the main process's tsconfig
// (its JSX runtime renders prompts to Markdown).
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { register } from 'tsx/esm/api'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
register({ tsconfig: join(root, 'tsconfig.node.json') })
const { main } = await import(pathToFileURL(join(root, 'src/main/cli.ts')).href)
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text)
})
