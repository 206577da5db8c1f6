// Lint with type information. The `no-restricted-imports` blocks enforce the layering of docs/design.md, "Architecture":
// src/core imports neither `vscode` nor Node built-ins; src/node never imports `vscode`; nothing but
// src/vscode and src/extension.ts imports `vscode`; core and node never reach up into a later layer.
import { existsSync } from 'node:fs';
import tseslint from 'typescript-eslint';

// Bare built-in names are matched exactly (a pattern 'fs' would also match the core's own './fs' module).
const bareBuiltins = [
  'fs',
  'fs/promises',
  'path',
  'os',
  'child_process',
  'crypto',
  'stream',
  'util',
  'url',
  'events',
  'buffer',
  'process',
  'readline',
  'worker_threads',
].map((name) => ({ name, message: 'src/core is pure: no Node built-ins (docs/design.md, "Architecture").' }));

// The rooms of src/core, ground floor first: a folder ('x/') or a file at the core's top. A room imports only rooms on
// lower floors, so the core's folders import one another one way (docs/development.md, "Layout"); the rule below is
// built from this list, and test/unit/imports.test.ts holds the whole of src/ to having no circle between rooms.
const CORE_FLOORS = [
  ['errors', 'naming', 'paths', 'settings'],
  ['encoding/', 'envelope', 'signals'],
  ['contract/', 'ports/'],
  ['confinement', 'files/'],
  ['history/'],
  ['context'],
  ['policy/', 'read/', 'tool'],
  ['catalog/', 'changes/', 'documents/', 'walk/'],
  ['edit/', 'recording/', 'search/'],
  ['notebook/', 'replace/', 'symbols/'],
  ['tools/'],
  ['invoke'],
];

const coreBase = {
  paths: [{ name: 'vscode', message: 'src/core is pure: no vscode (docs/design.md, "Architecture").' }, ...bareBuiltins],
  patterns: [
    { group: ['node:*'], message: 'src/core is pure: no Node built-ins (docs/design.md, "Architecture").' },
    { group: ['**/node/**', '**/vscode/**', '**/extension'], message: 'src/core may not import a later layer.' },
  ],
};

// The rooms of src/node, ground floor first, by the same rule: the Node file system under everything, then ripgrep,
// what every Node host builds a call's world from, the warm indexes, the two hosts, and the bins that start them.
const NODE_FLOORS = [['fs/'], ['search/'], ['host/'], ['indexes/'], ['mcp/', 'runner/'], ['bin/']];

/**
 * Import specifier patterns for a room of `layer`: anything inside a folder room (and its index), the one module of a
 * file room. src/node's rooms are all folders, reached from a sibling room as `../room/…`: anchored so, the patterns
 * leave the core's rooms of the same name (`../../core/search/…`) alone.
 */
const roomImports = (layer, room) =>
  layer === 'node'
    ? [`../${room}*`]
    : !room.endsWith('/')
      ? [`**/${room}`]
      : existsSync(`src/${layer}/${room}index.ts`)
        ? [`**/${room}*`, `**/${room.slice(0, -1)}`]
        : [`**/${room}*`];

/** One no-restricted-imports block per room of `floors`: `base` plus every room on its floor and above it. */
const floorRules = (layer, floors, base) =>
  floors.flatMap((rooms, floor) => {
    const above = floors.slice(floor).flat();
    return rooms.map((room) => ({
      files: [room.endsWith('/') ? `src/${layer}/${room}**/*.ts` : `src/${layer}/${room}.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            ...base,
            patterns: [
              ...base.patterns,
              ...(above.length > 1
                ? [
                    {
                      group: above.filter((other) => other !== room).flatMap((other) => roomImports(layer, other)),
                      message: `src/${layer}/${room} stands on floor ${floor + 1} of ${layer.toUpperCase()}_FLOORS (eslint.config.mjs): it imports only rooms on lower floors.`,
                    },
                  ]
                : []),
            ],
          },
        ],
      },
    }));
  });

const nodeBase = {
  paths: [{ name: 'vscode', message: 'src/node runs without the editor: no vscode (docs/design.md, "Architecture").' }],
  patterns: [{ group: ['**/vscode/**', '**/extension'], message: 'src/node may not import a later layer.' }],
};

// What the browser's extension (src/extension.web.ts) bundles: src/vscode but its Node room, src/vscode/node/, which
// only the desktop entry (src/extension.ts) imports. No Node built-in and no src/node either, so that the browser
// bundle (esbuild.mjs) never meets one.
const browserBase = {
  paths: bareBuiltins.map(({ name }) => ({
    name,
    message: 'src/vscode runs in the browser too: Node code goes in src/vscode/node/ (docs/design.md, "Architecture").',
  })),
  patterns: [
    {
      group: ['node:*', '**/node/**', '**/extension'],
      message: 'src/vscode runs in the browser too: Node code goes in src/vscode/node/ (docs/design.md, "Architecture").',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/hosts/**', '.bench/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  { files: ['src/core/**/*.ts'], rules: { 'no-restricted-imports': ['error', coreBase] } },
  ...floorRules('core', CORE_FLOORS, coreBase),
  { files: ['src/node/**/*.ts'], rules: { 'no-restricted-imports': ['error', nodeBase] } },
  {
    files: ['src/vscode/**/*.ts', 'src/extension.web.ts'],
    ignores: ['src/vscode/node/**'],
    rules: {
      'no-restricted-imports': ['error', browserBase],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', '__dirname', '__filename', 'setImmediate'].map((name) => ({
          name,
          message: 'src/vscode runs in the browser too, which has no Node globals: Node code goes in src/vscode/node/.',
        })),
      ],
    },
  },
  ...floorRules('node', NODE_FLOORS, nodeBase),
  {
    // Shared by the unit tests and the integration specs, which load it in the editor's extension host.
    files: ['test/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'test/shared serves the unit tests too: no vscode.' },
            { name: 'mocha', message: 'test/shared serves both test runners: no mocha.' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/unit/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Unit tests run over the Node adapter; use test/integration for the editor.' }],
        },
      ],
    },
  },
);
