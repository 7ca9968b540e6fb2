// Lint rules, including the import boundaries between the runtime folders (style guide §1).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noElectronOrApp = [{ name: 'electron', message: 'Only main/ may import electron.' }];

// The app/** rules again, for the blocks below that narrow parts of app/: a later block's
// no-restricted-imports replaces an earlier one's for the same file, it does not add to it.
const appPatterns = [
  { regex: '^electron(/|$)', message: 'app/ never imports electron.' },
  { regex: '(^|/)(main|renderer|device)/', message: 'app/ may import common/ only.' },
];
/** The rules of a part of app/: the app/** patterns and the part's own. */
function appImports(...patterns) {
  return {
    'no-restricted-imports': ['error', { paths: noElectronOrApp, patterns: [...appPatterns, ...patterns] }],
  };
}

// The sync engine's rooms (app/sync/*/) sit below its facade: they take its types from the leaf files
// (engine-options.ts, engine-events.ts), never from engine.ts, which imports them.
const noEngineFacade = {
  regex: '^\\.\\./engine(\\.ts)?$',
  message:
    'The rooms of app/sync sit below engine.ts: take shared types from engine-options.ts or engine-events.ts.',
};

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
    // The sync engine's imperative rooms: below the engine's facade.
    files: ['app/sync/{pass,guards,execute,recovery,trash,selection,on-demand}/**/*.ts'],
    rules: appImports(noEngineFacade),
  },
  {
    // The local scan and the remote walk are the two sides of a pass: neither knows the other.
    files: ['app/sync/local/**/*.ts'],
    rules: appImports(noEngineFacade, {
      regex: '^\\.\\./remote(/|$)',
      message: 'app/sync/local/ never imports the remote side (app/sync/remote/).',
    }),
  },
  {
    files: ['app/sync/remote/**/*.ts'],
    rules: appImports(noEngineFacade, {
      regex: '^\\.\\./local(/|$)',
      message: 'app/sync/remote/ never imports the local side (app/sync/local/).',
    }),
  },
  {
    // The functional core (style guide §3): state in, operations out, no I/O. It may import common/,
    // app/model/ and itself.
    files: ['app/sync/plan/**/*.ts'],
    rules: appImports(
      {
        regex: '^(?!\\.{1,2}/)',
        message: 'app/sync/plan/ is pure: no Node built-ins and no packages.',
      },
      {
        regex: '^\\.\\./(local|remote|execute|pass|guards|recovery|trash|selection|on-demand)(/|$)',
        message:
          'app/sync/plan/ is pure: it imports none of the rooms that read or write (local, remote, execute, pass, guards, recovery, trash, selection, on-demand).',
      },
      {
        regex: '^\\.\\./engine[^/]*$',
        message: 'app/sync/plan/ is pure: it imports nothing of the engine (engine*.ts).',
      },
      {
        regex: '^\\.\\./\\.\\./(?!model/)[^./]',
        message:
          'app/sync/plan/ is pure: of app/ outside app/sync it imports only app/model/ (no app/api, app/index...).',
      },
    ),
  },
  {
    // The on-demand mount process: it serves a FUSE mount, so it imports only its own folder, common/
    // and Node (the native addon is loaded by path): nothing of the engine or the service above it.
    files: ['app/mount/**/*.ts'],
    rules: appImports(
      {
        regex: '^\\.\\./(?!\\.\\./common/)',
        message: 'app/mount/ imports only itself, common/ and Node built-ins (app/native by path).',
      },
      {
        regex: '^(?!\\.{1,2}/|node:)',
        message: 'app/mount/ imports no packages: Node built-ins (node:*) only.',
      },
    ),
  },
  {
    // The data model every room shares: it imports nothing else of app/.
    files: ['app/model/**/*.ts'],
    rules: appImports({
      regex: '^\\.\\./(?!\\.\\./)',
      message: 'app/model/ is the bottom of app/: it imports only itself and common/.',
    }),
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
