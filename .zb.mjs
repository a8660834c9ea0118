import { build } from 'esbuild'
await build({ entryPoints: ['/tmp/zb/y.ts'], bundle: true, format: 'esm', platform: 'node', outfile: '/tmp/zb/y.mjs', banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" }, absWorkingDir: '/work/main', nodePaths: ['/work/main/node_modules'] })
