const { appendFileSync } = require('node:fs')
const Module = require('node:module')

// Preloaded with `node --require`: appends every CommonJS file loaded (a package required at run time, as the
// tokenizer is) to $GLASSBOX_IMPORT_LOG, beside the ES modules record-imports.mjs logs.
const load = Module._load
Module._load = function (request, parent, isMain) {
  const loaded = load.call(this, request, parent, isMain)
  if (process.env.GLASSBOX_IMPORT_LOG && !request.startsWith('node:')) {
    let file = request
    try {
      file = Module._resolveFilename(request, parent, isMain)
    } catch {
      // a built-in without the node: prefix: its name is what there is to log
    }
    appendFileSync(process.env.GLASSBOX_IMPORT_LOG, `require ${file}\n`)
  }
  return loaded
}
