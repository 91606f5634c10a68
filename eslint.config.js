// ESLint for the whole monorepo (flat config, ESLint 10): `npm run lint`.
// - typescript-eslint's recommended rules for every package;
// - React's hooks rules (rules-of-hooks, exhaustive-deps) for the client;
// - import boundaries (eslint-plugin-boundaries) from CONVENTIONS.md:
//   client: the FSD layers app > pages > widgets > features > entities > shared import only downward, and
//   a slice of another layer, or another slice of the same layer, only through that slice's index.ts;
//   a widget never imports another widget, nor a feature another feature (the page or widget above
//   composes them); that covers a .module.css import in a .ts/.tsx file too, but ESLint does not read
//   the stylesheets, so client/src/stylesheet-boundaries.test.ts checks their `composes: x from '...'`
//   (and those imports again);
//   server: a feature (a folder of server/src with an index.ts) imports another feature only through
//   its index.ts, and so do server/src's root files (app.ts, main.ts, context.ts) and its infrastructure
//   folders (db, lib, config, ops, seed ...);
//   packages: another workspace package only by its name (@fleet/shared, @fleet/workers), never a
//   relative path into its src/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';

/** The client's FSD layers, highest first: each may import only the layers after it. */
const CLIENT_LAYERS = ['app', 'pages', 'widgets', 'features', 'entities', 'shared'];
const clientType = (layer) => `client-${layer}`;

/**
 * server/src folders that are infrastructure, not features: anything may import their modules directly.
 * Every other folder of server/src is a feature and is entered through its index.ts (a new folder is a
 * feature by default).
 */
const SERVER_INFRASTRUCTURE = ['access', 'config', 'db', 'lib', 'openapi', 'ops', 'processes', 'seed'];

/**
 * Layers whose slices do not import each other at all (a slice's own files still import each other): two
 * widgets, or two features, are composed by the layer above them (a page, the app), never by one another;
 * a widget says what it wants with its own events and the page connects them (pages/map/model.ts).
 */
const ISOLATED_LAYERS = ['widgets', 'features'];
/** A slice's public entry point, relative to the slice folder. */
const NOT_ENTRY = '!index.{ts,tsx}';

const clientPolicies = CLIENT_LAYERS.flatMap((layer, index) => {
  const from = { element: { type: clientType(layer) } };
  const higher = CLIENT_LAYERS.slice(0, index).map(clientType);
  const lower = CLIENT_LAYERS.slice(index + 1).map(clientType);
  const policies = [];
  if (higher.length > 0) {
    policies.push({
      from,
      disallow: { to: { element: { types: { anyOf: higher } } } },
      message: `client/src/${layer} may import only the layers below it (${lower.join(', ').replaceAll('client-', '') || 'none'}), not ${higher.join(', ').replaceAll('client-', '')}`,
    });
  }
  if (lower.length > 0) {
    policies.push({
      from,
      disallow: { to: { element: { types: { anyOf: lower }, fileInternalPath: NOT_ENTRY } } },
      message: 'import another slice through its index.ts, not its internal files',
    });
  }
  if (ISOLATED_LAYERS.includes(layer)) {
    const noun = layer.replace(/s$/, '');
    policies.push({
      from,
      disallow: { to: { element: { type: clientType(layer), captured: { slice: '!{{ from.element.captured.slice }}' } } } },
      message: `a ${noun} does not import another ${noun}: the layer above (a page, the app) composes them, connecting their events and passing components in`,
    });
  } else if (layer !== 'app') {
    policies.push({
      from,
      disallow: {
        to: {
          element: {
            type: clientType(layer),
            captured: { slice: '!{{ from.element.captured.slice }}' },
            fileInternalPath: NOT_ENTRY,
          },
        },
      },
      message: 'import another slice through its index.ts, not its internal files',
    });
  }
  return policies;
});

const serverPolicies = [
  {
    from: { element: { type: 'server-feature' } },
    disallow: {
      to: {
        element: {
          type: 'server-feature',
          captured: { feature: '!{{ from.element.captured.feature }}' },
          fileInternalPath: '!index.ts',
        },
      },
    },
    message: 'a server feature imports another feature only through its index.ts',
  },
  {
    from: { element: { type: 'server-infrastructure' } },
    disallow: { to: { element: { type: 'server-feature', fileInternalPath: '!index.ts' } } },
    message: 'import a server feature through its index.ts, not its internal files',
  },
  {
    from: { file: { categories: 'server-root' } },
    disallow: { to: { element: { type: 'server-feature', fileInternalPath: '!index.ts' } } },
    message: 'import a server feature through its index.ts, not its internal files',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'tests/.artifacts/**',
      'client/public/**',
      'server/drizzle/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a value taken apart on purpose (rest siblings, positional arguments).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(shared|server|workers|client)/src/',
              message: 'import another workspace package by its entry point, not its source files',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests reach into other packages' sources on purpose (fakes, harnesses); the scripts are Node ESM.
    files: ['tests/**', 'scripts/**', '**/*.config.{js,ts}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['scripts/**/*.{js,mjs}', 'tests/scripts/**/*.mjs', '*.config.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        AbortSignal: 'readonly',
      },
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The two classic hooks rules. The React Compiler rules of the plugin's 7.x preset (refs,
    // set-state-in-effect, preserve-manual-memoization) stay off: this client does not use the compiler.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}', 'server/src/**/*.ts'],
    // Tests may reach into a slice's internals to build fakes and fixtures; the production code may not.
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/elements': [
        { type: 'client-app', pattern: 'client/src/app' },
        ...CLIENT_LAYERS.slice(1).map((layer) => ({
          type: clientType(layer),
          pattern: `client/src/${layer}/*`,
          capture: ['slice'],
        })),
        {
          type: 'server-infrastructure',
          pattern: `server/src/{${SERVER_INFRASTRUCTURE.join(',')}}`,
          exclusive: true,
        },
        { type: 'server-feature', pattern: 'server/src/*', capture: ['feature'] },
      ],
      // server/src's own files (app.ts, main.ts, context.ts) compose the features: a file category, not an element.
      'boundaries/files': [{ category: 'server-root', pattern: 'server/src/*.ts' }],
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: [...clientPolicies, ...serverPolicies] }],
    },
  },
);
