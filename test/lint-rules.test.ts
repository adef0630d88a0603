// Proves each boundary rule of eslint.config.js bites: every fixture under test/fixtures/lint
// breaks one rule and must fail; the allowed cases must pass.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = (relative: string) => path.join(root, 'test/fixtures/lint', relative);

describe('lint boundaries', () => {
  let results: Map<string, string[]>;

  beforeAll(async () => {
    const eslint = new ESLint({ cwd: root, ignore: false });
    const linted = await eslint.lintFiles([fixture('.')]);
    results = new Map(
      linted.map((r) => [path.relative(fixture('.'), r.filePath), r.messages.map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`)]),
    );
  }, 60_000);

  const rulesFiredOn = (file: string) => (results.get(file) ?? ['<not linted>']).map((m) => m.split(':')[0]);

  it('connector/src/core never imports electron', () => {
    expect(rulesFiredOn('connector/src/core/imports-electron.ts')).toContain('no-restricted-imports');
    expect(results.get('connector/src/core/imports-electron.ts')?.join('\n')).toContain('only connector/src/electron-main may import electron');
  });

  it('connector/src/electron-main may import electron', () => {
    expect(results.get('connector/src/electron-main/imports-electron.ts')).toEqual([]);
  });

  it('browser code (ui-kit, console app, connector page) imports no Node module', () => {
    expect(rulesFiredOn('ui-kit/src/imports-node.ts')).toContain('no-restricted-imports');
    expect(results.get('ui-kit/src/imports-node.ts')?.join('\n')).toContain('runs in a browser: no Node modules');
  });

  it('no workspace imports another workspace through a path inside it', () => {
    expect(rulesFiredOn('relay/src/deep-workspace-import.ts')).toContain('no-restricted-imports');
    expect(rulesFiredOn('relay/src/relative-workspace-import.ts')).toContain('import-x/no-relative-packages');
  });

  it('process.env only inside config modules', () => {
    expect(rulesFiredOn('relay/src/reads-env.ts')).toContain('no-restricted-properties');
    expect(results.get('relay/src/config/load-settings.ts')).toEqual([]);
  });

  it('relay/src imports only down its floors (import-floors.json), type-only imports included', () => {
    expect(rulesFiredOn('relay/src/db/imports-messaging.ts')).toContain('import-x/no-restricted-paths');
    expect(rulesFiredOn('relay/src/db/imports-messaging-type.ts')).toContain('import-x/no-restricted-paths');
    expect(results.get('relay/src/db/imports-messaging.ts')?.join('\n')).toContain('relay/src/{db} may import only its own floor and those below');
    expect(results.get('relay/src/messaging/imports-foundation.ts')).toEqual([]);
  });

  it("inside a relay module, store/ imports none of its module's services (and services may import the store)", () => {
    expect(rulesFiredOn('relay/src/bridge/store/imports-service.ts')).toContain('import-x/no-restricted-paths');
    expect(results.get('relay/src/bridge/store/imports-service.ts')?.join('\n')).toContain('relay/src/bridge/store runs SQL and may not import');
    expect(results.get('relay/src/bridge/services/imports-store.ts')).toEqual([]);
  });

  it("the connector's core imports none of ui/, app/, cli/, desktop/ or electron-main/", () => {
    expect(rulesFiredOn('connector/src/core/imports-ui.ts')).toContain('import-x/no-restricted-paths');
  });

  it('no import cycles', () => {
    expect(rulesFiredOn('cycle/first.ts')).toContain('import-x/no-cycle');
    expect(rulesFiredOn('cycle/second.ts')).toContain('import-x/no-cycle');
  });
});
