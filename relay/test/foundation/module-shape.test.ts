// Issue 35's module shape, read from the tree and from a running app: every feature module of the
// relay is a named Fastify plugin that declares the modules it needs, with the same inside (routes,
// admin = operator routes and CLI commands, services, store, workers); routes are plugins registered
// one way; nothing reaches services through a shared context object.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgePlugin } from '../../src/bridge/bridge-plugin.js';
import { configPlugin } from '../../src/config/config-plugin.js';
import { databasePlugin } from '../../src/db/database-plugin.js';
import { clockPlugin } from '../../src/foundation/clock-plugin.js';
import { startRelay, type TestRelay } from '@ledgerwire/test-kit';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const MODULES = ['operator', 'webhooks', 'messaging', 'bridge', 'gateway', 'console'] as const;
const INSIDE = new Set(['routes', 'admin', 'services', 'store', 'workers']);
/** Besides its plugin, a module's own folder holds at most what composes its services. */
const ROOT_FILE = /^(?:[a-z-]+-plugin|[a-z-]+-module|[a-z-]+-services|index)\.ts$/;
/** Folders outside the modules whose routes are part of the app's edge, not of a module. */
const EDGE_ROUTE_FOLDERS = ['probes'];

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** What is wrong with one module folder's layout (empty when it has the shape). */
export function moduleShapeProblems(moduleDir: string, extraFolders: readonly string[] = []): string[] {
  const problems: string[] = [];
  const entries = fs.readdirSync(moduleDir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.isDirectory() && !INSIDE.has(entry.name) && !extraFolders.includes(entry.name)) problems.push(`folder ${entry.name}/ is not one of ${[...INSIDE].join(', ')}`);
    if (entry.isFile() && !ROOT_FILE.test(entry.name)) problems.push(`${entry.name} belongs in one of ${[...INSIDE].join(', ')}`);
  }
  const plugins = entries.filter((entry) => entry.isFile() && entry.name.endsWith('-plugin.ts'));
  if (plugins.length !== 1) problems.push(`has ${plugins.length} plugin files, not one`);
  for (const plugin of plugins) {
    const text = fs.readFileSync(path.join(moduleDir, plugin.name), 'utf8');
    if (!/= fp(<[^>]*>)?\(/.test(text)) problems.push(`${plugin.name} is not a fastify-plugin`);
    if (!/name: 'ledgerwire-[a-z-]+'/.test(text)) problems.push(`${plugin.name} has no name`);
    if (!/dependencies: \[/.test(text)) problems.push(`${plugin.name} declares no dependencies`);
  }
  return problems;
}

/** Route files that are not one plain plugin (a factory taking services, or routes outside routes/ and admin/). */
export function routeFileProblems(file: string, text: string): string[] {
  const relative = path.relative(src, file);
  const problems: string[] = [];
  const folder = path.basename(path.dirname(file));
  const edge = EDGE_ROUTE_FOLDERS.some((edgeFolder) => relative.startsWith(`${edgeFolder}${path.sep}`));
  if (!edge && folder !== 'routes' && folder !== 'admin') problems.push(`${relative}: route files live in routes/ or admin/`);
  if (/export (?:async )?function \w+Routes\(/.test(text)) problems.push(`${relative}: a route factory; export the plugin itself`);
  if (!/export const \w+Routes: FastifyPluginAsync(?:Zod)?\b/.test(text)) problems.push(`${relative}: does not export its routes as one plugin`);
  return problems;
}

describe('the module shape, read from the tree', () => {
  it.each(MODULES)('relay/src/%s has one named plugin and the same inside', (name) => {
    expect(moduleShapeProblems(path.join(src, name), name === 'console' ? ['app'] : [])).toEqual([]);
  });

  it('every route file is one plain plugin in routes/ or admin/', () => {
    const routeFiles = filesUnder(src).filter((file) => file.endsWith('-routes.ts'));
    expect(routeFiles.length).toBeGreaterThan(20);
    expect(routeFiles.flatMap((file) => routeFileProblems(file, fs.readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('nothing reaches services through a shared context object', () => {
    const offenders = filesUnder(src).filter((file) => /\bapp\.relay\b|RelayContext/.test(fs.readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the checks fail on what they forbid', () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'module-shape-'));
    try {
      fs.mkdirSync(path.join(scratch, 'helpers'));
      fs.writeFileSync(path.join(scratch, 'loose-service.ts'), '');
      fs.writeFileSync(path.join(scratch, 'thing-plugin.ts'), 'export const thingPlugin = async () => {};\n');
      expect(moduleShapeProblems(scratch).sort()).toEqual([
        'folder helpers/ is not one of routes, admin, services, store, workers',
        'loose-service.ts belongs in one of routes, admin, services, store, workers',
        'thing-plugin.ts declares no dependencies',
        'thing-plugin.ts has no name',
        'thing-plugin.ts is not a fastify-plugin',
      ]);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    const factory = 'export function listRoutes(services: S): FastifyPluginAsyncZod {\n  return async (app) => {};\n}\n';
    expect(routeFileProblems(path.join(src, 'bridge', 'services', 'list-routes.ts'), factory)).toEqual([
      expect.stringContaining('route files live in routes/ or admin/'),
      expect.stringContaining('a route factory'),
      expect.stringContaining('does not export its routes as one plugin'),
    ]);
  });
});

describe('the module plugins, read from a running app', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay({ database: 'sqlite' });
  });
  afterAll(() => relay.close());

  it('registers every module by name', () => {
    for (const name of ['config', 'clock', 'database', 'operators', 'webhooks', 'messaging', 'bridge', 'connector-gateway', 'console']) {
      expect(relay.app.hasPlugin(`ledgerwire-${name}`), name).toBe(true);
    }
  });

  it('refuses a module whose dependencies are not registered, naming them', async () => {
    const app = Fastify({ logger: false });
    await app.register(configPlugin, { config: relay.config });
    await app.register(clockPlugin);
    await app.register(databasePlugin);
    await expect(app.register(bridgePlugin)).rejects.toThrow(/ledgerwire-operators/);
    await app.close();
  });
});
