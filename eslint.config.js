// Lint that fails the build. Besides typescript-eslint's recommended rules, it holds the tree's
// boundaries (each proven to bite by test/lint-rules.test.ts against fixtures in test/fixtures/lint):
//   - connector/src/core never imports electron;
//   - browser code (ui-kit, the console app, the connector page) imports no Node module;
//   - no workspace imports another's src/ (only its package entry, @ledgerwire/<name>);
//   - process.env only inside config modules (and tests);
//   - no import cycles;
//   - relay/src and connector/src import only down their floors (import-floors.json), type-only imports included.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Deep imports through a package name; relative paths that climb into a sibling workspace are
// caught by import-x/no-relative-packages.
const deepWorkspaceImport = {
  group: ['@ledgerwire/*/*'],
  message: 'Import another workspace only through its package entry (@ledgerwire/<name>), never a path inside it.',
};
const electronInCore = {
  group: ['electron', 'electron/*'],
  message: 'connector/src/core is plain Node: only connector/src/electron-main may import electron.',
};

// The kit and the pages built on it are bundled for a browser, where Node's modules do not exist.
const nodeInBrowser = {
  group: ['node:*', ...builtinModules, ...builtinModules.map((name) => `${name}/*`)],
  message: 'Browser code (ui-kit, console app, connector page) runs in a browser: no Node modules.',
};
const browserCode = ['**/ui-kit/src/**', '**/relay/src/console/app/**', '**/connector/src/ui/browser/**'];

// One zone per floor: its folders may not import any folder of a higher floor. Globs, so the lint
// fixtures under test/fixtures/lint/<tree>/ are held to the same floors as the tree itself.
const importFloors = JSON.parse(fs.readFileSync(new URL('./import-floors.json', import.meta.url), 'utf8'));
const floorGlob = (tree, entry) => (entry.endsWith('.ts') ? `**/${tree}/${entry}` : `**/${tree}/${entry}/**`);
const floorZones = Object.entries(importFloors.trees).flatMap(([tree, floors]) =>
  floors.slice(0, -1).map((floor, index) => ({
    target: floor.map((entry) => floorGlob(tree, entry)),
    from: floors.slice(index + 1).flat().map((entry) => floorGlob(tree, entry)),
    message: `${tree}/{${floor.join(',')}} may import only its own floor and those below (import-floors.json): move what both need below both.`,
  })),
);

// Inside each relay module the same direction (relay/README.md, "One shape for every module"): its
// store/ runs SQL and reads nothing of the module above it, and its services/ import none of its
// workers, routes or admin (those call services; services import no Fastify). Another module's folders are governed by the floors above.
const relayModules = ['operator', 'webhooks', 'messaging', 'bridge', 'gateway', 'console'];
const moduleZones = relayModules.flatMap((name) => [
  {
    target: [`**/relay/src/${name}/store/**`],
    from: ['services', 'workers', 'routes', 'admin'].map((folder) => `**/relay/src/${name}/${folder}/**`),
    message: `relay/src/${name}/store runs SQL and may not import its module's services, workers, routes or admin: move what it needs into store/.`,
  },
  {
    target: [`**/relay/src/${name}/services/**`],
    from: ['workers', 'routes', 'admin'].map((folder) => `**/relay/src/${name}/${folder}/**`),
    message: `relay/src/${name}/services may not import its module's workers, routes or admin: they call services, not the other way.`,
  },
]);

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test/fixtures/**', '**/*.d.ts', 'e2e/test-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // The dependency graph (no-cycle) must parse TypeScript files too.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...floorZones, ...moduleZones] }],
      'import-x/no-relative-packages': 'error',
      'no-restricted-imports': ['error', { patterns: [deepWorkspaceImport] }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment only in a config module (loadConfig); pass config down.' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/connector/src/core/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deepWorkspaceImport, electronInCore] }] },
  },
  {
    files: browserCode,
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { patterns: [deepWorkspaceImport, nodeInBrowser] }] },
  },
  {
    // Config modules read the environment; so do tests (and their kit), benchmarks, e2e drivers and build scripts, which are
    // their own entry points. Same-workspace relative imports of src/ are allowed in a workspace's tests.
    files: ['**/config/**', '**/*-config.ts', '**/*.config.ts', '**/*.config.js', '*/test/**', 'test/*.ts', 'test-kit/**', 'bench/**', 'e2e/**', 'build/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/test/**', 'test-kit/**', 'bench/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
