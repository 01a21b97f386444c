// Lint: typescript-eslint (type-aware on the Node side, where floating promises hide failures),
// eslint-plugin-svelte for the renderer, and the architecture's import walls
// (eslint/boundaries.js, described in docs/design-notes.md). Formatting is Prettier's job.
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './eslint/boundaries.js';
import svelteConfig from './svelte.config.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'test-results/', 'bench/.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2024, sourceType: 'module' },
    plugins: { folio: boundaries },
    rules: {
      'folio/import-boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
      // Crashes under ESLint 10 (a wrapped core rule reading a scope it no longer gets).
      'svelte/no-inner-declarations': 'off',
      // The renderer replaces state rather than mutating it (a new Set, new URLSearchParams, then
      // one assignment), so built-in mutables are local temporaries, not state to track.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  {
    // Type-aware rules where a mistake is silent at run time: an unawaited promise in the core,
    // the shells or the simulator loses its error.
    files: ['src/main/**/*.ts', 'src/shared/**/*.ts', 'src/sim/**/*.ts', 'src/preload/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Every connection is opened by store/driver.ts, which applies an encrypted cache's key
    // before the first read: a connection opened anywhere else would miss it.
    files: ['src/**/*.ts'],
    ignores: ['src/main/core/store/driver.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'better-sqlite3-multiple-ciphers',
              allowTypeImports: true,
              message: 'Open connections with openConnection (src/main/core/store/driver.ts): it applies the cache key.',
            },
            { name: 'better-sqlite3', message: 'The driver is better-sqlite3-multiple-ciphers, through src/main/core/store/driver.ts.' },
          ],
        },
      ],
    },
  },
  {
    // SQL lives in the store layer only: src/main/core/store/ and each capability's own store/
    // folder (docs/ARCHITECTURE.md). Elsewhere the core calls the store's functions.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/core/store/**', 'src/main/core/*/store/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(prepare|exec|pragma)$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]',
          message: "SQL belongs in the store layer (src/main/core/store/ or the capability's store/ folder): call a store function here.",
        },
        {
          selector: 'TaggedTemplateExpression[tag.name=/^sql/]',
          message: "SQL belongs in the store layer (src/main/core/store/ or the capability's store/ folder): call a store function here.",
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,svelte}', 'test/renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'], svelteConfig },
    },
  },
  {
    // Tests read untyped JSON and stand in for Electron's objects: `any` there is the point.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unsafe-function-type': 'off' },
  },
  {
    files: ['scripts/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
