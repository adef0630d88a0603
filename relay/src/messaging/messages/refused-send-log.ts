// Keeps a note of each send the relay refused after authenticating it — what was asked and why it
// was refused — for support to see in the console (issue 33). Limit refusals (429) are not noted: a
// tenant over its limits would otherwise turn every refused request into a write. Notes are pruned
// after RETENTION_DAYS; failing to write one never changes the answer the sender gets.
import type { SendMessageIn } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database, MsgRefusedSendsTable } from '../../db/schema.js';
import type { AppError } from '../../errors/catalogue.js';
import { isoNow, newId } from '../../foundation/messaging-ids.js';

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
      await this.db
        .insertInto('msg_refused_sends')
        .values({
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
        })
        .execute();
    } catch {
      // A note is for support's eyes only: the sender's answer does not depend on it.
    }
  }

  list(tenantId: string, limit: number): Promise<RefusedSendRow[]> {
    return this.db.selectFrom('msg_refused_sends').selectAll().where('tenant_id', '=', tenantId).orderBy('refused_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  async prune(): Promise<void> {
    const before = new Date(this.now() - REFUSED_SEND_RETENTION_DAYS * 86_400_000).toISOString();
    await this.db.deleteFrom('msg_refused_sends').where('refused_at', '<', before).execute();
  }
}
