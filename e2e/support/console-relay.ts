// An in-process relay for browser tests: a fresh SQLite database in a temporary DATA_DIR, a known
// operator token, listening on a random port so Chromium can reach it over real HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, loadConfig } from '@ledgerwire/relay';

export const E2E_OPERATOR_TOKEN = 'lwop_e2e-console-operator-token-0123456789';

export type ConsoleRelay = Readonly<{
  app: FastifyInstance;
  baseUrl: string;
  consoleUrl: string;
  dataDir: string;
  close(): Promise<void>;
}>;

export async function startConsoleRelay(env: Record<string, string> = {}): Promise<ConsoleRelay> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-e2e-console-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    RELAY_ADMIN_TOKEN: E2E_OPERATOR_TOKEN,
    WEBHOOK_ALLOW_PRIVATE_URLS: '1',
    MESSAGING_DISPATCH_INTERVAL_MS: '100',
    ...env,
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay is not listening on a TCP port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app,
    baseUrl,
    consoleUrl: `${baseUrl}/console`,
    dataDir,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls the relay's HTTP API as an integrator would (not through the console), failing on any other status. */
export async function callApi<T>(relay: ConsoleRelay, method: string, url: string, expectedStatus: number, options: { token: string; body?: unknown }): Promise<T> {
  const response = await relay.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${options.token}` },
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
  if (response.statusCode !== expectedStatus) {
    throw new Error(`${method} ${url} answered ${response.statusCode}, expected ${expectedStatus}: ${response.body.slice(0, 1000)}`);
  }
  return response.json<T>();
}

/** Polls a condition until it holds (bounded), for state the relay's background loops change. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 10_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
