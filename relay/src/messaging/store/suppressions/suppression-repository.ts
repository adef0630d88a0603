// The suppression list: add (a repeat keeps the first reason and time), read, remove, and the
// dispatch worker's one lookup per claim; each method runs one operation of store/suppressions/.
import type { Executor } from '../messages/message-repository.js';
import { addSuppression } from './add-suppression.js';
import { findSuppressionsAmong } from './find-suppressions-among.js';
import { listSuppressions } from './list-suppressions.js';
import { removeSuppression } from './remove-suppression.js';
import type { SuppressionRow } from './suppression-rows.js';

export type { SuppressionRow } from './suppression-rows.js';

export class SuppressionRepository {
  constructor(private readonly db: Executor) {}

  add(row: SuppressionRow, executor: Executor = this.db): Promise<void> {
    return addSuppression(executor, row);
  }

  list(tenantId: string, limit: number): Promise<SuppressionRow[]> {
    return listSuppressions(this.db, tenantId, limit);
  }

  /** Returns whether the address was on the list. */
  remove(tenantId: string, email: string): Promise<boolean> {
    return removeSuppression(this.db, tenantId, email);
  }

  /** The suppressed ones among these (tenant, address) pairs, keyed `tenant\0address`, in one query. */
  async findAmong(pairs: readonly { tenantId: string; email: string }[]): Promise<Map<string, SuppressionRow>> {
    const found = new Map<string, SuppressionRow>();
    for (const row of await findSuppressionsAmong(this.db, pairs)) found.set(suppressionKey(row.tenant_id, row.email), row);
    return found;
  }
}

export function suppressionKey(tenantId: string, email: string): string {
  return `${tenantId}\u0000${email.toLowerCase()}`;
}
