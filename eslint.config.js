// Lint rules, including the import boundaries between the runtime folders (style guide §1).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noElectronOrApp = [{ name: 'electron', message: 'Only main/ may import electron.' }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.demo/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/explicit-module-boundary-types': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      eqeqeq: ['error', 'always'],
      // Fastify route handlers are async by convention, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'vitest.config.ts', 'vite.config.ts'],
    rules: { '@typescript-eslint/explicit-module-boundary-types': 'off' },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.{1,2}/)',
              message: 'common/ holds pure types and helpers: no packages and no Node built-ins.',
            },
            {
              regex: '^\\.\\./(app|main|renderer|device)(/|$)',
              message: 'common/ imports nothing above it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectronOrApp,
          patterns: [
            { regex: '^electron(/|$)', message: 'app/ never imports electron.' },
            { regex: '(^|/)(main|renderer|device)/', message: 'app/ may import common/ only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['device/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectronOrApp,
          patterns: [
            { regex: '^electron(/|$)', message: 'device/ never imports electron.' },
            { regex: '(^|/)(app|main|renderer)/', message: 'device/ may import common/ wire types only.' },
          ],
        },
      ],
    },
  },
  {
    // The Electron main process and preload: thin glue from Electron to app/ (docs/architecture.md).
    files: ['main/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)(renderer|device)/', message: 'main/ may import app/ and common/ only.' },
          ],
        },
      ],
    },
  },
  {
    // The UI runs in Electron's sandboxed renderer and in a plain browser: DOM globals, no Node.
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectronOrApp,
          patterns: [
            {
              regex:
                '^(node:|(fs|path|os|child_process|http|https|net|crypto|url|util|stream|events|worker_threads)(/|$))',
              message: 'renderer/ runs in a browser: no Node built-ins.',
            },
            {
              regex: '^electron(/|$)',
              message: 'renderer/ never imports electron; the host gives it window.mchBridge.',
            },
            {
              regex: '(^|/)(app|main|device)(/|$)',
              message: 'renderer/ may import common/ only; it speaks to the core through the bridge.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'renderer/ runs in a browser: no Node globals.' },
        { name: 'require', message: 'renderer/ runs in a browser: no Node globals.' },
        { name: 'Buffer', message: 'renderer/ runs in a browser: no Node globals.' },
      ],
    },
  },
);
