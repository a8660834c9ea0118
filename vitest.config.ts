import { defineConfig } from 'vitest/config'

export default defineConfig({
  esbuild: { jsx: 'transform', jsxFactory: 'h', jsxFragment: 'Fragment' },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'out/**', 'src/renderer/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks'
  }
})
