// ESLint (flat config) with typescript-eslint's recommended rules, plus the boundaries of the design:
// src/core never imports vscode (nor our VS Code adapter), and a built-in hook imports only the front
// door for hook authors (src/core/hooks/api.ts), its own folder and packages.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', noVscode] },
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
