// SQL for the suppression list: add (a repeat keeps the first reason and time), read, remove, and the
// dispatch worker's one lookup per claim.
import type { Selectable } from 'kysely';
import type { MsgSuppressionsTable } from '../../db/schema.js';
import type { Executor } from '../messages/message-repository.js';

export type SuppressionRow = Selectable<MsgSuppressionsTable>;

export class SuppressionRepository {
  constructor(private readonly db: Executor) {}

  async add(row: SuppressionRow, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('msg_suppressions')
      .values({ ...row, email: row.email.toLowerCase() })
      .onConflict((oc) => oc.columns(['tenant_id', 'email']).doNothing())
      .execute();
  }

  list(tenantId: string, limit: number): Promise<SuppressionRow[]> {
    return this.db.selectFrom('msg_suppressions').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('email').limit(limit).execute();
  }

  /** Returns whether the address was on the list. */
  async remove(tenantId: string, email: string): Promise<boolean> {
    const result = await this.db.deleteFrom('msg_suppressions').where('tenant_id', '=', tenantId).where('email', '=', email.toLowerCase()).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The suppressed ones among these (tenant, address) pairs, keyed `tenant\0address`, in one query. */
  async findAmong(pairs: readonly { tenantId: string; email: string }[]): Promise<Map<string, SuppressionRow>> {
    const found = new Map<string, SuppressionRow>();
    if (pairs.length === 0) return found;
    const tenants = [...new Set(pairs.map((p) => p.tenantId))];
    const emails = [...new Set(pairs.map((p) => p.email.toLowerCase()))];
    const rows = await this.db.selectFrom('msg_suppressions').selectAll().where('tenant_id', 'in', tenants).where('email', 'in', emails).execute();
    for (const row of rows) found.set(suppressionKey(row.tenant_id, row.email), row);
    return found;
  }
}

export function suppressionKey(tenantId: string, email: string): string {
  return `${tenantId}\u0000${email.toLowerCase()}`;
}
