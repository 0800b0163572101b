import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { MONEY_FLOW, SERVER_MODULE_ENTRY_POINTS, WEB_FEATURE_ENTRY_POINTS } from './eslint.boundaries.js';

/**
 * The walls of the code (docs/ARCHITECTURE.md, Boundaries): which files may import which. Each is a
 * zone of import-x/no-restricted-paths, checked on resolved paths, so `../x`, `./y` and `@domain/z`
 * are judged alike.
 */
const folders = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
const serverModules = folders('src/server/modules');
const webFeatures = folders('src/web/features');
/** Every entry of src/server but its modules folder: platform, adapters, db, app.ts, main.ts, ... */
const serverOutsideModules = fs
  .readdirSync('src/server')
  .filter((name) => name !== 'modules')
  .map((name) => `./src/server/${name}`);

const zones = [
  {
    target: './src/domain',
    from: ['./src/server', './src/web'],
    message: 'domain/ is pure: it imports nothing from server/ or web/.',
  },
  { target: './src/web', from: './src/server', message: 'The browser never imports the server.' },
  { target: './src/server', from: './src/web', message: 'The server never imports the browser app.' },
  // A server module's queries, views and helpers are its own; every other file calls its service
  // operations, the files it declares in eslint.boundaries.js.
  ...serverModules.map((name) => ({
    target: [
      ...serverOutsideModules,
      ...serverModules.filter((other) => other !== name).map((other) => `./src/server/modules/${other}`),
    ],
    from: `./src/server/modules/${name}`,
    except: [
      `./${name}.service.ts`,
      `./${name}.routes.ts`,
      ...(SERVER_MODULE_ENTRY_POINTS[name] ?? []).map((file) => `./${file}`),
    ],
    message: `Call the ${name} module through its service operations (eslint.boundaries.js), not its queries or internals.`,
  })),
  // Money flows one way: no module of the flow imports one before it, whatever the file.
  ...MONEY_FLOW.slice(1).map((name, i) => ({
    target: `./src/server/modules/${name}`,
    from: MONEY_FLOW.slice(0, i + 1).map((earlier) => `./src/server/modules/${earlier}`),
    message: `Money flows one way (${MONEY_FLOW.join(' → ')}): ${name} does not import ${MONEY_FLOW.slice(0, i + 1).join(', ')} (docs/ARCHITECTURE.md, Money flows one way).`,
  })),
  // Platform code serves every module and knows none of them but through their services.
  {
    target: ['./src/server/platform', './src/server/adapters', './src/server/db/client.ts'],
    from: './src/server/app.ts',
    message: 'app.ts builds the app from the platform; the platform does not import it.',
  },
  // A web feature uses another only through the entry points it declares; the app's pages compose
  // features freely; lib/ and components/ are below every feature.
  ...webFeatures.map((name) => ({
    target: webFeatures.filter((other) => other !== name).map((other) => `./src/web/features/${other}`),
    from: `./src/web/features/${name}`,
    except: (WEB_FEATURE_ENTRY_POINTS[name] ?? []).map((file) => `./${file}`),
    message: `Use the ${name} feature through its declared entry points (eslint.boundaries.js).`,
  })),
  {
    target: ['./src/web/lib', './src/web/components'],
    from: ['./src/web/features', './src/web/app'],
    message: 'lib/ and components/ are shared by every feature and import none of them.',
  },
  {
    target: './src/web/features',
    from: './src/web/app',
    message: 'A feature does not import the app (its router, layouts or pages).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      'node_modules',
      'src/server/db/migrations',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads the files an import leads to (for cycles) with TypeScript's parser.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Tests and their helpers build scenes from any module's rows and any feature's fixtures: the
    // walls keep the product's code, not its tests (docs/ARCHITECTURE.md, Boundaries).
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'src/server/testing/**',
      'src/web/test-support/**',
      '**/testing/**',
    ],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // Type-aware rules: a promise nobody awaits or catches, a promise where a plain value is
    // expected, a switch on a union that forgets a member.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    files: ['src/web/**/*.tsx', 'src/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // A Suspense boundary of the server's HTML hands over what was typed into it before it hydrated
    // (src/web/components/suspense.tsx; docs/decisions/0014-first-load.md, Typing before hydration).
    files: ['src/web/**/*.tsx', 'src/web/**/*.ts'],
    ignores: ['src/web/components/suspense.tsx', '**/*.test.tsx', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react',
              importNames: ['Suspense'],
              message:
                "Use Suspense from src/web/components/suspense.tsx: it hands over what was typed into the boundary's HTML before it hydrated.",
            },
          ],
        },
      ],
    },
  },
);
