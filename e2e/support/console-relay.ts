// A relay for browser tests, started by the test kit: listening on a random port so Chromium reaches it
// over real HTTP, with private webhook URLs allowed and a quick dispatch loop. Tests call it through the
// kit's `call` and sign in with the kit's TEST_OPERATOR_TOKEN.
import type { FastifyInstance } from 'fastify';
import { startRelay } from '@ledgerwire/test-kit';

export type ConsoleRelay = Readonly<{
  app: FastifyInstance;
  baseUrl: string;
  consoleUrl: string;
  dataDir: string;
  close(): Promise<void>;
}>;

export async function startConsoleRelay(env: Record<string, string> = {}): Promise<ConsoleRelay> {
  const relay = await startRelay({
    listen: true,
    env: { PORT: '0', HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_URLS: '1', MESSAGING_DISPATCH_INTERVAL_MS: '100', ...env },
  });
  return {
    app: relay.app,
    baseUrl: relay.baseUrl,
    consoleUrl: `${relay.baseUrl}/console`,
    dataDir: relay.config.dataDir,
    close: () => relay.close(),
  };
}
