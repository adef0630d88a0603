// Operator accounts. A token is found by its SHA-256 digest (unique), so every relay process sees a
// rotation or revocation on the very next request: nothing is cached. Each method runs one operation
// of store/accounts/.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findActiveOperatorByTokenHash } from './accounts/find-active-operator-by-token-hash.js';
import { findOperatorAccount } from './accounts/find-operator-account.js';
import { insertOperatorAccount } from './accounts/insert-operator-account.js';
import { listOperatorAccounts } from './accounts/list-operator-accounts.js';
import type { OperatorAccountRow } from './accounts/operator-account-row.js';
import { replaceOperatorTokenHash } from './accounts/replace-operator-token-hash.js';
import { revokeOperatorAccount } from './accounts/revoke-operator-account.js';

export type { OperatorAccountRow } from './accounts/operator-account-row.js';

export class OperatorAccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: OperatorAccountRow): Promise<void> {
    return insertOperatorAccount(this.db, row);
  }

  findById(id: string): Promise<OperatorAccountRow | undefined> {
    return findOperatorAccount(this.db, id);
  }

  /** The active account holding this token digest, if any. */
  findActiveByTokenHash(tokenHash: string): Promise<OperatorAccountRow | undefined> {
    return findActiveOperatorByTokenHash(this.db, tokenHash);
  }

  list(): Promise<OperatorAccountRow[]> {
    return listOperatorAccounts(this.db);
  }

  /** Replaces the digest of an active account; false when it is revoked or absent. */
  replaceTokenHash(id: string, tokenHash: string, at: string): Promise<boolean> {
    return replaceOperatorTokenHash(this.db, id, tokenHash, at);
  }

  /** Marks the account revoked (idempotent: the first revocation time stays). */
  revoke(id: string, at: string): Promise<void> {
    return revokeOperatorAccount(this.db, id, at);
  }
}
