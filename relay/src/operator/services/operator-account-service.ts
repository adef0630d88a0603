// Operator accounts: create (token shown once), list, rotate, revoke, and resolve a presented token
// to the operator it belongs to. The bootstrap token (RELAY_ADMIN_TOKEN or the generated one) is not
// an account: it acts as admin so that it can create the first admin account.
import { randomUUID } from 'node:crypto';
import { OperatorRole, type OperatorAccount, type OperatorAccountIn } from '@ledgerwire/shared';
import { AppError } from '../../errors/catalogue.js';
import { generateSecret, secretMatchesHash, sha256Hex } from '../../security/secret-hash.js';
import type { OperatorAccountRepository, OperatorAccountRow } from '../store/operator-account-repository.js';
import type { OperatorToken } from './operator-token.js';

export const OPERATOR_TOKEN_PREFIX = 'lwop_';
export const BOOTSTRAP_ACTOR_ID = 'bootstrap';

/** Who is calling: set on every authenticated /admin/v1 request. */
export type OperatorIdentity = Readonly<{
  kind: 'bootstrap' | 'account';
  id: string;
  name: string;
  role: OperatorRole;
  tokenSource: 'env' | 'data-dir' | 'account';
}>;

export class OperatorAccountService {
  constructor(
    private readonly accounts: OperatorAccountRepository,
    private readonly bootstrap: OperatorToken,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The operator a presented bearer token belongs to, or undefined (unknown, rotated or revoked). */
  async authenticate(presented: string): Promise<OperatorIdentity | undefined> {
    if (this.bootstrap.matches(presented)) {
      return { kind: 'bootstrap', id: BOOTSTRAP_ACTOR_ID, name: 'bootstrap token', role: 'admin', tokenSource: this.bootstrap.source };
    }
    if (!presented.startsWith(OPERATOR_TOKEN_PREFIX)) return undefined;
    const digest = sha256Hex(presented);
    const row = await this.accounts.findActiveByTokenHash(digest);
    // The lookup is by digest; the constant-time comparison guards against a lookup that ever matched loosely.
    if (row === undefined || !secretMatchesHash(presented, row.token_hash)) return undefined;
    return { kind: 'account', id: row.id, name: row.name, role: OperatorRole.parse(row.role), tokenSource: 'account' };
  }

  async create(input: OperatorAccountIn, createdBy: string): Promise<{ operator: OperatorAccount; token: string }> {
    const token = generateSecret(OPERATOR_TOKEN_PREFIX);
    const row: OperatorAccountRow = {
      id: `opr_${randomUUID().replaceAll('-', '')}`,
      name: input.name,
      role: input.role,
      token_hash: sha256Hex(token),
      created_at: this.now().toISOString(),
      created_by: createdBy,
      token_rotated_at: null,
      revoked_at: null,
    };
    await this.accounts.insert(row);
    return { operator: toAccount(row), token };
  }

  async list(): Promise<OperatorAccount[]> {
    return (await this.accounts.list()).map(toAccount);
  }

  async get(id: string): Promise<OperatorAccount> {
    return toAccount(await this.require(id));
  }

  /** A new token for the account; the old one is refused from the next request on. */
  async rotateToken(id: string): Promise<{ operator: OperatorAccount; token: string }> {
    const existing = await this.require(id);
    if (existing.revoked_at !== null) throw new AppError('operator_account_revoked');
    const token = generateSecret(OPERATOR_TOKEN_PREFIX);
    if (!(await this.accounts.replaceTokenHash(id, sha256Hex(token), this.now().toISOString()))) throw new AppError('operator_account_revoked');
    return { operator: toAccount(await this.require(id)), token };
  }

  /** Revokes the account; its token is refused from the next request on, on every relay process. */
  async revoke(id: string): Promise<OperatorAccount> {
    await this.require(id);
    await this.accounts.revoke(id, this.now().toISOString());
    return toAccount(await this.require(id));
  }

  private async require(id: string): Promise<OperatorAccountRow> {
    const row = await this.accounts.findById(id);
    if (row === undefined) throw new AppError('operator_account_not_found');
    return row;
  }
}

function toAccount(row: OperatorAccountRow): OperatorAccount {
  return {
    id: row.id,
    name: row.name,
    role: OperatorRole.parse(row.role),
    status: row.revoked_at === null ? 'active' : 'revoked',
    created_at: row.created_at,
    created_by: row.created_by,
    token_rotated_at: row.token_rotated_at,
    revoked_at: row.revoked_at,
  };
}
