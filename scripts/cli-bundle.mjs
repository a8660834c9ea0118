import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import start from './cli-start.cjs'

// The command line and web mode run as JavaScript bundled by esbuild into out/cli/ (no TypeScript compiler
// at run time). `npm install` builds it (prepare); every start checks that no source is newer than the
// bundle and rebuilds first if one is, so a stale bundle never runs. Some packages stay external: DuckDB's
// and pg's native parts cannot be bundled, and heavy ones (LangChain, DuckDB) are loaded by dynamic import
// only in the commands that use them; code splitting keeps those imports lazy. better-sqlite3's JavaScript is
// bundled (its 14 files took 5–8 ms to compile on every start) and its .node file is loaded by path: the
// store always names it (src/main/store/native-binding.ts).

export const { ROOT, OUT_DIR, CACHED_ENTRY, staleReason, loadWithCodeCache, wrapScript } = start
const { INFO_FILE } = start
// query-child: the process server queries run in (src/main/engines/query-process.ts forks it from here).
const ENTRIES = { cli: 'src/main/cli.ts', web: 'src/main/web/start.ts', 'query-child': 'src/main/engines/query-child.ts' }
const EXTERNAL = ['@duckdb/*', 'pg', 'pg-*', '@langchain/*', 'chokidar', 'electron', 'esbuild', 'playwright-core', 'tsx', 'vitest']
/**
 * Packages no `glassbox prompt` without attachments loads, left out of the CommonJS bundle (its commands load
 * them from node_modules when they need them): bundled, their 1.2 MB were read and their code cache taken on
 * every start, ~7 ms.
 */
export const LAZY_PACKAGES = ['yaml', 'file-type', 'mime-types', '@modelcontextprotocol/sdk']
/** Modules replaced in the bundle by leaner ones of ours that do the same job, with why in each file. */
const SUBSTITUTES = [
  { module: 'js-yaml', importer: /node_modules[\\/]gray-matter[\\/]/, by: 'src/main/project/gray-matter-yaml.ts' },
  { module: '../locales/index.js', importer: /node_modules[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/, by: 'src/main/zod-locales.ts' }
]

const substitutes = {
  name: 'glassbox-substitutes',
  setup(build) {
    for (const { module, importer, by } of SUBSTITUTES) {
      build.onResolve({ filter: new RegExp(`^${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }, (args) => (importer.test(args.importer) ? { path: join(ROOT, by) } : undefined))
    }
  }
}

const BUILD_DEFINES = { __GLASSBOX_BUILD__: 'true' }

/** Files that change the bundle without being one of its inputs. */
const CONFIG_FILES = ['package.json', 'package-lock.json', 'tsconfig.node.json', 'tsconfig.base.json', 'scripts/cli-bundle.mjs', 'scripts/cli-start.cjs']

/** Builds out/cli/ from the sources; the new folder replaces the old one only once complete. */
export async function buildCli() {
  const { build } = await import('esbuild')
  const temp = `${OUT_DIR}.building-${process.pid}`
  rmSync(temp, { recursive: true, force: true })
  // Shared by both builds below.
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    // Small JavaScript packages are bundled (one file to load instead of hundreds); heavy ones and native ones
    // other than better-sqlite3 stay in node_modules, loaded only where a command needs them.
    external: EXTERNAL,
    plugins: [substitutes],
    // The main process's JSX: prompts are rendered by its own `h` runtime (see electron.vite.config.ts).
    jsx: 'transform',
    jsxFactory: 'h',
    jsxFragment: 'Fragment',
    tsconfig: join(ROOT, 'tsconfig.node.json'),
    metafile: true,
    logLevel: 'warning',
    // Tells the code it runs from this build, whose folder may keep files derived from the installed packages
    // (src/main/build-cache.ts).
    define: BUILD_DEFINES
  }
  const result = await build({
    ...common,
    entryPoints: ENTRIES,
    outdir: temp,
    splitting: true,
    format: 'esm',
    // Bundled CommonJS packages may require Node's built-ins.
    banner: { js: "import { createRequire as __glassboxRequire } from 'node:module'; const require = __glassboxRequire(import.meta.url);" },
    chunkNames: 'chunks/[name]-[hash]'
  })
  // The command line once more as one CommonJS script, which bin/glassbox.js runs with V8's code cache
  // (scripts/cli-start.cjs): Node 20 keeps no code cache for ES modules, and compiling the code a prompt runs
  // is a third of a cold `glassbox prompt`. Modules reached only by import() stay unevaluated until then.
  const commonJs = await build({
    ...common,
    entryPoints: { [CACHED_ENTRY.replace(/\.cjs$/, '')]: ENTRIES.cli },
    outdir: temp,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    external: [...EXTERNAL, ...LAZY_PACKAGES],
    // scripts/cli-start.cjs passes the script's URL beside CommonJS's __filename and __dirname.
    define: { ...BUILD_DEFINES, 'import.meta.url': '__moduleUrl', 'import.meta.dirname': '__dirname' },
    // Templates become strings, which esbuild writes in ASCII (a tagged template's raw text too), so that
    // asciiOnly below meets non-ASCII only in regular expressions and comments.
    supported: { 'template-literal': false },
    // Without whitespace, comments and redundant syntax the script is 1.49 -> 1.08 MB: ~300 fewer pages of new
    // memory to read it into and make a string of (each first touch of a page is a fault, ~14 µs on a VM).
    // Identifiers stay: prompt components are named by their functions' names, errors by their classes'.
    minifyWhitespace: true,
    minifySyntax: true
  })
  const cachedEntry = join(temp, CACHED_ENTRY)
  writeFileSync(cachedEntry, wrapScript(asciiOnly(routeDynamicImports(readFileSync(cachedEntry, 'utf8')))), 'latin1')
  // The bundled packages' own files are not listed: installing other versions changes package-lock.json.
  const inputs = [
    ...Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/')),
    ...CONFIG_FILES.filter((file) => existsSync(join(ROOT, file)))
  ]
  // The packages in the CommonJS script, which no longer names them in path comments (see minifyWhitespace).
  const commonJsPackages = [...new Set(Object.keys(commonJs.metafile.inputs).flatMap((input) => packageOf(input) ?? []))].sort()
  writeFileSync(join(temp, INFO_FILE), JSON.stringify({ inputs, commonJsPackages }, null, 1) + '\n')
  const old = `${OUT_DIR}.old-${process.pid}`
  try {
    if (existsSync(OUT_DIR)) renameSync(OUT_DIR, old)
    mkdirSync(dirname(OUT_DIR), { recursive: true })
    renameSync(temp, OUT_DIR)
  } catch (error) {
    // Another start built it at the same moment: keep theirs if it is current.
    rmSync(temp, { recursive: true, force: true })
    if (staleReason() !== null) throw error
  } finally {
    rmSync(old, { recursive: true, force: true })
  }
}

/** The package a bundled file belongs to (`@scope/name` or `name`, after the last node_modules/), or null for a source of ours. */
export function packageOf(input) {
  const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.slice(input.lastIndexOf('node_modules/')))
  return match ? match[1] : null
}

/**
 * The script with each `import("package")` (of a package it leaves in node_modules) made a call of the loader's
 * `__import` (see scripts/cli-start.cjs). esbuild writes such an import with a double-quoted specifier. Inside a
 * double-quoted string that quote would be escaped, and a comment is harmless; a single-quoted string holding
 * `import("…")` would be rewritten too (none does: the bundle's `__import(` calls are exactly its imports).
 */
export function routeDynamicImports(code) {
  return code.replace(/(?<![\w$.])import\((?=")/g, '__import(')
}

/**
 * The script with every non-ASCII UTF-16 unit written as a `\uXXXX` escape, which means the same in a string, a
 * regular expression (a surrogate pair too, with the u flag or without) and a comment. bin/glassbox.js reads
 * an ASCII script as Latin-1, in ~1 ms against ~8 ms for 2.5 MB of UTF-8. An identity escape (an odd run of
 * backslashes before the character) loses its backslash; an even run escapes itself and is left.
 */
export function asciiOnly(code) {
  return code.replace(/(\\*)([^\x00-\x7f])/g, (_, backslashes, unit) => {
    const escape = `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`
    return (backslashes.length % 2 === 1 ? backslashes.slice(1) : backslashes) + escape
  })
}

/** The bundled entry (`cli` or `web`), rebuilt first when a source is newer. */
export async function builtEntry(name, log = (line) => process.stderr.write(line + '\n')) {
  const reason = staleReason()
  if (reason) {
    log(`glassbox: building the command line into out/cli (${reason})…`)
    try {
      await buildCli()
    } catch (error) {
      throw new Error(`building out/cli failed (${error instanceof Error ? error.message : String(error)}); run \`npm run build:cli\` to see why`)
    }
  }
  return join(OUT_DIR, `${name}.js`)
}

// `node scripts/cli-bundle.mjs`: build now (npm's prepare step and `npm run build:cli`).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  await buildCli()
  process.stdout.write(`Built ${relative(process.cwd(), OUT_DIR) || OUT_DIR} in ${Math.round(performance.now() - started)} ms\n`)
}
