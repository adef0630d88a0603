// Fixtures for the webhook engine: the engine (service + delivery loops) on a fresh test database, its
// time the test kit's testClock; deliveries are caught by the kit's webhook catcher.
import { randomBytes } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '@ledgerwire/shared';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { BackgroundLoop } from '../../src/background/background-loop.js';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { createWebhookDeliveryLoop } from '../../src/webhooks/workers/webhook-delivery-loop.js';
import { WebhookService } from '../../src/webhooks/services/webhook-service.js';
import type { HostResolver } from '../../src/webhooks/services/webhook-url-policy.js';
import { createTestDatabase, testClock, type CaughtDelivery, type DatabaseKind, type TestClock, type TestDatabase } from '@ledgerwire/test-kit';

/**
 * Verifies a received request with the standardwebhooks library as a receiver whose clock agrees with
 * the relay's (the library checks the timestamp against Date.now()). Returns the parsed body; throws
 * WebhookVerificationError when no signature matches.
 */
export function verifyAt(secret: string, request: CaughtDelivery, clock: TestClock): unknown {
  const spy = vi.spyOn(Date, 'now').mockReturnValue(clock.now());
  try {
    return new Webhook(secret).verify(request.body, request.headers);
  } finally {
    spy.mockRestore();
  }
}

export const silentLog = pino({ level: 'silent' });

export type EngineOptions = {
  allowPrivateUrls?: boolean;
  requestTimeoutMs?: number;
  resolveHost?: HostResolver;
  batchSize?: number;
  /** The relay's encryption of signing secrets (default: a fresh random key). */
  secretBox?: SecretBox;
};

export type TestEngine = Readonly<{
  testDatabase: TestDatabase;
  database: RelayDatabase;
  clock: TestClock;
  service: WebhookService;
  secretBox: SecretBox;
  loop: BackgroundLoop;
  /**
   * Another delivery loop, on its own connection pool: a second relay process on the same database
   * (with the same encryption key unless given another).
   */
  openSecondLoop(options?: { secretBox?: SecretBox }): Promise<BackgroundLoop>;
  close(): Promise<void>;
}>;

export async function startEngine(kind: DatabaseKind, options: EngineOptions = {}): Promise<TestEngine> {
  const testDatabase = await createTestDatabase(kind);
  const database = openDatabase(testDatabase.database);
  await migrateToLatest(database.db, database.capabilities);
  const clock = testClock(Date.now());
  const allowPrivateUrls = options.allowPrivateUrls ?? true;
  const extraDatabases: RelayDatabase[] = [];
  const secretBox = options.secretBox ?? new SecretBox(randomBytes(32));
  const loopOn = (db: RelayDatabase, box: SecretBox) =>
    createWebhookDeliveryLoop({
      db: db.db,
      capabilities: db.capabilities,
      secretBox: box,
      clock: clock.date,
      allowPrivateUrls,
      requestTimeoutMs: options.requestTimeoutMs ?? 2_000,
      // The middle of the jitter range: delays come out exactly as the schedule says.
      random: () => 0.5,
      log: silentLog,
      ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    });
  const service = new WebhookService({
    db: database.db,
    capabilities: database.capabilities,
    clock: clock.date,
    allowPrivateUrls,
    eventTypes: WEBHOOK_EVENT_TYPES,
    secretBox,
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });
  return {
    testDatabase,
    database,
    clock,
    service,
    secretBox,
    loop: loopOn(database, secretBox),
    async openSecondLoop(secondOptions = {}) {
      const second = openDatabase(testDatabase.database);
      extraDatabases.push(second);
      return loopOn(second, secondOptions.secretBox ?? secretBox);
    },
    async close() {
      for (const extra of extraDatabases) await extra.destroy();
      await database.destroy();
      await testDatabase.drop();
    },
  };
}
