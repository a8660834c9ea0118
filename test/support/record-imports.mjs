import { appendFileSync } from 'node:fs'

// Module hooks (node --import with register()): append the URL of every ES module resolved to
// $GLASSBOX_IMPORT_LOG, so a test can tell which files and packages a command loaded.
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (process.env.GLASSBOX_IMPORT_LOG) appendFileSync(process.env.GLASSBOX_IMPORT_LOG, resolved.url + '\n')
  return resolved
}
