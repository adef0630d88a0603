// Takes vouchers out of a company's pending queue in one transaction, remembering the alter id each
// was acknowledged at (a later alteration makes it pending again). Repeating is harmless: only rows
// still pending change. Answers the transaction ids found and how many this call acknowledged.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export function acknowledgePulledVouchers(
  db: Kysely<Database>,
  companyId: number,
  transactionIds: readonly string[],
  now: string,
): Promise<{ found: string[]; acknowledged: number }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('pulled_vouchers')
      .select(['id', 'transaction_id', 'status', 'alter_id'])
      .where('company_id', '=', companyId)
      .where('transaction_id', 'in', [...transactionIds])
      .execute();
    let acknowledged = 0;
    for (const row of rows.filter((r) => r.status === 'pending')) {
      const result = await trx
        .updateTable('pulled_vouchers')
        .set({ status: 'acknowledged', acknowledged_alter_id: row.alter_id, acknowledged_at: now })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      acknowledged += Number(result.numUpdatedRows);
    }
    return { found: rows.map((r) => r.transaction_id), acknowledged };
  });
}
