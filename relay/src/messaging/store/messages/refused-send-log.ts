// Keeps a note of each send the relay refused after authenticating it — what was asked and why it
// was refused — for support to see in the console (issue 33). Limit refusals (429) are not noted: a
// tenant over its limits would otherwise turn every refused request into a write. Notes are pruned
// after RETENTION_DAYS; failing to write one never changes the answer the sender gets. The SQL is in
// store/messages/ (insert-refused-send.ts, list-refused-sends.ts, prune-refused-sends.ts).
import type { SendMessageIn } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database, MsgRefusedSendsTable } from '../../../db/schema.js';
import type { AppError } from '../../../errors/catalogue.js';
import { isoNow, newId } from '../../../foundation/messaging-ids.js';
import { insertRefusedSend } from './insert-refused-send.js';
import { listRefusedSends } from './list-refused-sends.js';
import { pruneRefusedSends } from './prune-refused-sends.js';

export const REFUSED_SEND_RETENTION_DAYS = 7;

export type RefusedSendRow = MsgRefusedSendsTable;

export class RefusedSendLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** Notes the refusal; never throws. */
  async note(tenantId: string, input: Partial<SendMessageIn>, error: AppError): Promise<void> {
    if (error.status === 429 || error.status >= 500) return;
    const details = error.details.map((d) => d.message).join(' ');
    const extra = Object.entries(error.extra).map(([key, value]) => `${key}=${value}`).join(', ');
    try {
      await insertRefusedSend(this.db, {
        id: newId('rfs'),
        tenant_id: tenantId,
        code: error.code,
        status: error.status,
        reason: [error.message, extra && `(${extra})`, details].filter(Boolean).join(' ').slice(0, 4000),
        event_key: input.event_key?.slice(0, 100) ?? null,
        channel: input.channel?.slice(0, 20) ?? null,
        to_address: input.to?.slice(0, 320) ?? null,
        transaction_id: input.transaction_id?.slice(0, 150) ?? null,
        refused_at: isoNow(this.now),
      });
    } catch {
      // A note is for support's eyes only: the sender's answer does not depend on it.
    }
  }

  list(tenantId: string, limit: number): Promise<RefusedSendRow[]> {
    return listRefusedSends(this.db, tenantId, limit);
  }

  async prune(): Promise<void> {
    const before = new Date(this.now() - REFUSED_SEND_RETENTION_DAYS * 86_400_000).toISOString();
    await pruneRefusedSends(this.db, before);
  }
}
