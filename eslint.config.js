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
    // No branch on a service kind's name outside the adapters and the simulator's flavours.
    files: ['src/**/*.ts'],
    ignores: ['src/adapters/**', 'src/sim/**'],
    rules: { 'no-restricted-syntax': ['error', ...kindBranchRules()] },
  },
  {
    files: ['bin/**/*.js', 'bench/**/*.mjs', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
