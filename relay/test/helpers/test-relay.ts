// Builds an in-process relay on a test database, with a known operator token, and a request helper
// that states the status it expects and fails with the body on any other.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { loadConfig, type RelayConfig } from '../../src/config/load-config.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './test-databases.js';

export const TEST_OPERATOR_TOKEN = 'lwop_test-operator-token-0123456789';

export type TestRelay = Readonly<{
  app: FastifyInstance;
  config: RelayConfig;
  testDatabase: TestDatabase;
  close(): Promise<void>;
}>;

export async function startTestRelay(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  options: BuildAppOptions = {},
): Promise<TestRelay> {
  const testDatabase = await createTestDatabase(kind);
  const base = loadConfig({ DATA_DIR: testDatabase.dataDir, LOG_LEVEL: 'silent', RELAY_ADMIN_TOKEN: TEST_OPERATOR_TOKEN, ...env });
  const config: RelayConfig = Object.freeze({ ...base, database: testDatabase.database });
  let app: FastifyInstance;
  try {
    app = await buildApp(config, options);
  } catch (error) {
    await testDatabase.drop();
    throw error;
  }
  return {
    app,
    config,
    testDatabase,
    async close() {
      await app.close();
      await testDatabase.drop();
    },
  };
}

export type CallOptions = Omit<InjectOptions, 'method' | 'url'> & { token?: string };

/** Calls the app and asserts the status; returns the parsed JSON body (or text when not JSON). */
export async function call<T = any>(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  expectedStatus: number,
  options: CallOptions = {},
): Promise<{ body: T; headers: Record<string, string | number | string[] | undefined> }> {
  const { token, headers, ...rest } = options;
  const response = await app.inject({
    method,
    url,
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers },
    ...rest,
  });
  let body: unknown = response.body;
  try {
    body = response.json();
  } catch {
    // not JSON: keep text
  }
  expect(response.statusCode, `${String(method)} ${url} → ${response.statusCode}: ${response.body.slice(0, 2000)}`).toBe(expectedStatus);
  return { body: body as T, headers: response.headers };
}
