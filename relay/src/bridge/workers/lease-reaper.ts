// The bridge's one background loop: hands back to the queue every job whose connector's lease ran
// out (the connector vanished mid-job), so another session claims it; its lag is the oldest lease due.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { createBackgroundLoop, type BackgroundLoop } from '../../background/background-loop.js';
import { oldestDueAt } from '../../background/oldest-due-row.js';
import type { Database } from '../../db/schema.js';
import type { JobQueue } from '../services/jobs/job-queue.js';

export function createLeaseReaper(deps: { db: Kysely<Database>; jobQueue: JobQueue; intervalMs: number; log: FastifyBaseLogger }): BackgroundLoop {
  return createBackgroundLoop({
    name: 'bridge-lease-reaper',
    intervalMs: deps.intervalMs,
    log: deps.log,
    pass: async () => {
      await deps.jobQueue.expireLeases();
    },
    oldestDue: (at) => oldestDueAt(deps.db, { table: 'transactions', status: 'processing', dueColumn: 'lease_expires_at' }, at),
  });
}
