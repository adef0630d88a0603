// The background loop that drives webhook delivery: each pass claims a batch of due deliveries and
// sends them (webhook-delivery-worker.ts); a full batch means more may be waiting, so it runs again at
// once. Publishing wakes it; otherwise it polls, which is also how deliveries queued by another relay
// process on a shared PostgreSQL, and retries coming due, are picked up.
import type { FastifyBaseLogger } from 'fastify';
import { createBackgroundLoop, type BackgroundLoop } from '../../background/background-loop.js';
import { oldestDueAt } from '../../background/oldest-due-row.js';
import { WebhookDeliveryWorker, type WebhookDeliveryWorkerDeps } from './webhook-delivery-worker.js';

export const WEBHOOK_LOOP_INTERVAL_MS = 2_000;

export function createWebhookDeliveryLoop(
  options: Omit<WebhookDeliveryWorkerDeps, 'log'> & { log: FastifyBaseLogger; intervalMs?: number },
): BackgroundLoop {
  const { log, intervalMs, ...workerDeps } = options;
  const worker = new WebhookDeliveryWorker({ ...workerDeps, log });
  return createBackgroundLoop({
    name: 'webhook-delivery',
    intervalMs: intervalMs ?? WEBHOOK_LOOP_INTERVAL_MS,
    log,
    pass: async () => (await worker.deliverDue()) >= worker.batchSize,
    oldestDue: (at) => oldestDueAt(workerDeps.db, { table: 'webhook_deliveries', status: 'pending', dueColumn: 'next_attempt_at' }, at),
  });
}
