const { writeFileSync } = require('node:fs')

// Preloaded with `node --require`: at exit, writes the Node built-ins the process loaded (from
// process.moduleLoadList), one per line, to $GLASSBOX_BUILTIN_LOG.
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length))
  writeFileSync(process.env.GLASSBOX_BUILTIN_LOG, builtins.join('\n') + '\n')
})
