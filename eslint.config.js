import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// A small, strict rule set: each rule catches a real mistake (a promise nobody awaits, a hook called
// conditionally, an `any` that switches the type checker off), not a matter of taste. `npm run lint`.

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'resources/**', 'test/fixtures/**', '**/*.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.node.json', './tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname
      }
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // Type-aware: promises must be awaited, returned, or explicitly voided; only thenables are awaited.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `ready && start()` and `a ? b() : c()` as statements read fine; a bare expression that does nothing does not.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // The JSX runtime declares its JSX types in a namespace, as TypeScript requires.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Control characters in patterns are deliberate here: they find and strip them from untrusted text.
      'no-control-regex': 'off',
      // The type checker already knows what is defined (and the globals of Node and the browser).
      'no-undef': 'off'
    }
  },
  {
    // A value import of node:fs/promises loads it with the module (~1 ms in a fresh process, and the whole
    // `glassbox prompt` bundle imports every module at start). `promises` from node:fs is loaded on first use.
    files: ['src/main/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/main/ipc.ts', 'src/main/web/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['node:fs/promises', 'fs/promises'].map((name) => ({
            name,
            message: "Use `promises` from 'node:fs', which Node loads on first use.",
            allowTypeImports: true
          }))
        }
      ]
    }
  },
  {
    // One-off scripts outside both tsconfigs: linted without type information.
    files: ['scripts/**/*.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off', '@typescript-eslint/await-thenable': 'off', '@typescript-eslint/no-unnecessary-type-assertion': 'off', '@typescript-eslint/only-throw-error': 'off' }
  }
)
