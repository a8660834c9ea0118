import { loadWithCodeCache } from '../../scripts/cli-start.cjs'

// `node run-code-cached.mjs FILE ARGS…`: runs the CommonJS command-line bundle FILE with its code cache, as
// bin/glassbox.js does, and says on its last stderr line whether V8 took the cache it found.
const [file, ...argv] = process.argv.slice(2)
const cli = loadWithCodeCache(file)
process.exitCode = await cli.exports.main(argv, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text)
})
cli.saveCache()
process.stderr.write(`code cache ${cli.cacheAccepted ? 'accepted' : 'not used'}\n`)
