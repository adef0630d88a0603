// SQL for operator accounts. A token is found by its SHA-256 digest (unique), so every relay
// process sees a rotation or revocation on the very next request: nothing is cached.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { OperatorTables } from '../db/operator-tables.js';

export type OperatorAccountRow = Selectable<OperatorTables['operator_accounts']>;

export class OperatorAccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: OperatorAccountRow): Promise<void> {
    await this.db.insertInto('operator_accounts').values(row).execute();
  }

  async findById(id: string): Promise<OperatorAccountRow | undefined> {
    return this.db.selectFrom('operator_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The active account holding this token digest, if any. */
  async findActiveByTokenHash(tokenHash: string): Promise<OperatorAccountRow | undefined> {
    return this.db.selectFrom('operator_accounts').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
  }

  async list(): Promise<OperatorAccountRow[]> {
    return this.db.selectFrom('operator_accounts').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  /** Replaces the digest of an active account; false when it is revoked or absent. */
  async replaceTokenHash(id: string, tokenHash: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('operator_accounts')
      .set({ token_hash: tokenHash, token_rotated_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Marks the account revoked (idempotent: the first revocation time stays). */
  async revoke(id: string, at: string): Promise<void> {
    await this.db.updateTable('operator_accounts').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  }
}
