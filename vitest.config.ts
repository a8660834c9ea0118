import { defineConfig } from 'vitest/config'

export default defineConfig({
  esbuild: { jsx: 'transform', jsxFactory: 'h', jsxFragment: 'Fragment' },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'out/**'],
    environment: 'node',
    // Builds the nao-layout fixture's DuckDB file once, before any test file runs.
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 20_000,
    // Polled assertions (mostly the browser suites) wait up to 5 s: a loaded CI machine answers late.
    expect: { poll: { timeout: 5_000 } },
    hookTimeout: 30_000,
    pool: 'forks',
    // The JSON report lets .ci/run print one plain summary line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
  }
})
