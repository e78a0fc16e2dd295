// ESLint (flat config) with typescript-eslint's recommended rules, plus the boundaries of the design:
// each folder of src/core imports only the folders below it (scripts/lint/layers.mjs, the order
// docs/architecture.md shows), src/core and the command line never import vscode, and a built-in hook
// imports only the front door for hook authors (src/core/hooks/api.ts), its own folder and packages.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { CLI_FACE, layersPlugin } from './scripts/lint/layers.mjs';

const noVscode = {
  paths: [{ name: 'vscode', message: 'src/core is shared with the CLI and the hook bridge: it never imports vscode.' }],
  patterns: [{ regex: '(^|/)vscode/', message: 'src/core never imports the VS Code adapter (src/vscode).' }],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.vscode-test/', 'test-artifacts/', '.bench/', 'sample-project/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_name` marks a parameter kept for its position (a middleware's `next`, a provider's input).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/folder-order': 'error' },
  },
  {
    // A function longer than a screen is split into named steps. Test suites (describe blocks) are
    // long by nature; src/vscode is not held to it yet (StatusBar.render is 93 lines).
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    ignores: ['src/vscode/**'],
    rules: { 'max-lines-per-function': ['error', { max: 90 }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', noVscode] },
  },
  {
    files: CLI_FACE,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'The command line and the agent hooks run in plain Node: they never import vscode.' }] },
      ],
    },
  },
  {
    files: ['src/core/hooks/builtin/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noVscode,
          patterns: [
            ...noVscode.patterns,
            {
              // From src/core/hooks/builtin/<hook>/: `../../api` is the front door; any other `../` leaves the hook's folder.
              regex: '^\\.\\./(?!\\.\\./api$)',
              message: 'A built-in hook imports only the front door (../../api), its own folder and packages.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.mocha } },
    rules: {
      // Tests read arbitrary JSON answers and load node:sqlite only where the runtime has it.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
