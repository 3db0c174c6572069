// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importsPointDown } from './scripts/layers.mjs';
import { kindBranchRules } from './scripts/kind-branches.mjs';

export default tseslint.config(
  { ignores: ['dist/', 'reports/', 'node_modules/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { layers: { rules: { 'imports-point-down': importsPointDown } } },
    rules: { 'layers/imports-point-down': 'error' },
  },
  {
    // Everything a command prints goes through its CliIO (cli/io.ts), where it is made safe to
    // print once; so a command run in-process (test/helpers/main.ts) prints what the binary does.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/io.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        ...['stdout', 'stderr'].map((property) => ({
          object: 'process',
          property,
          message:
            "print through the command's CliIO (io.stdout, io.stderr): it escapes what a service or a file said",
        })),
      ],
    },
  },
  {
    // No branch on a service kind's name outside the adapters and the simulator's flavours.
    files: ['src/**/*.ts'],
    ignores: ['src/adapters/**', 'src/sim/**'],
    rules: { 'no-restricted-syntax': ['error', ...kindBranchRules()] },
  },
  {
    // A unit or cli test stays in this process: the binary, a child process and the browser are
    // the process and browser projects' (vitest.config.ts).
    files: ['test/**/*.test.ts'],
    ignores: ['test/**/*.process.test.ts', 'test/**/*.browser.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:child_process', 'child_process', 'playwright-core'].map((name) => ({
            name,
            message: 'a test that starts a process or a browser is a *.process.test.ts or *.browser.test.ts',
          })),
          patterns: [
            {
              group: ['**/helpers/cli.js'],
              importNames: ['runCli', 'spawnCli', 'startSimProcess', 'BIN'],
              message:
                'runMain (test/helpers/main.ts) runs a command in-process; the binary is for *.process.test.ts',
            },
            {
              group: ['**/helpers/browser.js', '**/helpers/open.js', '**/helpers/tool-nights.js'],
              message:
                'this helper starts a process or a browser: name the test *.process.test.ts or *.browser.test.ts',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bin/**/*.js', 'bench/**/*.mjs', 'scripts/**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly' },
    },
  },
);
