import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import visibleText, { TEXT_PROPS } from './eslint-rules/visible-text.js';

const DRIVERS = ['better-sqlite3', 'mongodb', 'nats', '@eventstore/db-client', 'livekit-server-sdk'].map((name) => ({ name, message: 'Drivers belong in platform/ adapters.' }));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'frontend/.dist-*/**', 'data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The app's pages take values from the contracts' zod-free subpaths: the main entry brings zod and every schema
    // (and zod's eval probe trips the CSP). Types are free.
    files: ['frontend/src/**/*.{ts,tsx}'],
    ignores: ['frontend/src/**/*.test.{ts,tsx}', 'frontend/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@telemed/contracts', allowTypeImports: true, message: 'Import values from a zod-free subpath (@telemed/contracts/texts, /constants, /record-constants, ...).' }] },
      ],
    },
  },
  {
    // No text a user sees outside the language catalogues (issue 33): literal words in the screens' JSX fail the lint.
    files: ['frontend/src/**/*.tsx'],
    ignores: ['frontend/src/**/*.test.tsx', 'frontend/src/test/**'],
    plugins: { telemed: { rules: { 'visible-text': visibleText } } },
    rules: { 'telemed/visible-text': ['error', { props: { include: TEXT_PROPS } }] },
  },
  {
    // Drivers are imported only by platform/ adapters (DESIGN.md §3).
    files: ['services/**/*.ts', 'contracts/**/*.ts', 'frontend/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: DRIVERS }],
    },
  },
  {
    // The write side and the notifier stand without the read side: they declare lookup ports, which services/query
    // implements and each service's main.ts (and all-in-one) wires (DESIGN.md §2).
    files: ['services/command/src/**/*.ts', 'services/notifier/src/**/*.ts'],
    ignores: ['services/*/src/main.ts', 'services/*/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...DRIVERS, { name: '@telemed/query', message: 'The write side imports nothing from the read side: declare a lookup port and wire it in main.ts.' }] }],
    },
  },
);
