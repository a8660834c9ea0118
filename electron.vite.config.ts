import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

// The main process renders prompts with its own tiny JSX runtime (classic `h`), the renderer uses React.
const mainJsx = { jsx: 'transform', jsxFactory: 'h', jsxFragment: 'Fragment' } as const

export default defineConfig({
  main: {
    esbuild: mainJsx,
    // Marks a build, whose folder may keep files derived from the installed packages (src/main/build-cache.ts).
    define: { __GLASSBOX_BUILD__: 'true' },
    build: {
      // query-child: the process server queries run in (src/main/engines/query-process.ts forks it).
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts'), 'query-child': resolve(__dirname, 'src/main/engines/query-child.ts') } }
    }
  },
  // A sandboxed preload may only require 'electron': bundle everything else into it.
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    }
  }
})
