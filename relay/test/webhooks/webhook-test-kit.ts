// Test kit for the webhook engine: a real HTTP receiver on a random port that records every request
// and answers as the test tells it, a settable clock, and the engine (service + delivery loops) on a
// fresh test database.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENT_TYPES } from '@ledgerwire/shared';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { BackgroundLoop } from '../../src/background/background-loop.js';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { createWebhookDeliveryLoop } from '../../src/webhooks/webhook-delivery-loop.js';
import { WebhookService } from '../../src/webhooks/webhook-service.js';
import type { HostResolver } from '../../src/webhooks/webhook-url-policy.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '@ledgerwire/test-kit';

export type ReceivedRequest = Readonly<{ path: string; headers: Record<string, string>; body: string }>;
/** What the receiver does with the next request: answer with a status, or never answer. */
export type ReceiverBehaviour = { status: number; headers?: Record<string, string> } | 'hang';

export type TestReceiver = Readonly<{
  url: string;
  requests: ReceivedRequest[];
  /** Sets the answer for every following request. */
  respondWith(behaviour: ReceiverBehaviour): void;
  /** Resolves once `count` requests in total have arrived. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}>;

export async function startReceiver(): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let behaviour: ReceiverBehaviour = { status: 204 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      requests.push({ path: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      if (behaviour === 'hang') return;
      res.writeHead(behaviour.status, behaviour.headers ?? {});
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    respondWith(next) {
      behaviour = next;
    },
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A clock the test moves by hand. */
export class TestClock {
  private current: number;
  constructor(start = new Date()) {
    this.current = start.getTime();
  }
  readonly now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * Verifies a received request with the standardwebhooks library as a receiver whose clock agrees with
 * the relay's (the library checks the timestamp against Date.now()). Returns the parsed body; throws
 * WebhookVerificationError when no signature matches.
 */
export function verifyAt(secret: string, request: ReceivedRequest, clock: TestClock): unknown {
  const spy = vi.spyOn(Date, 'now').mockReturnValue(clock.now().getTime());
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
  const clock = new TestClock();
  const allowPrivateUrls = options.allowPrivateUrls ?? true;
  const extraDatabases: RelayDatabase[] = [];
  const secretBox = options.secretBox ?? new SecretBox(randomBytes(32));
  const loopOn = (db: RelayDatabase, box: SecretBox) =>
    createWebhookDeliveryLoop({
      db: db.db,
      capabilities: db.capabilities,
      secretBox: box,
      clock: clock.now,
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
    clock: clock.now,
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
