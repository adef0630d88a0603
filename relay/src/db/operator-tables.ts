// Table types for operator accounts and the audit log (0300-operator-accounts-and-audit).
import type { Generated } from 'kysely';

export interface OperatorTables {
  operator_accounts: {
    id: string;
    name: string;
    role: string;
    /** SHA-256 hex of the account's token; the token itself is never stored. */
    token_hash: string;
    created_at: string;
    created_by: string;
    token_rotated_at: string | null;
    revoked_at: string | null;
  };
  operator_audit_log: {
    id: Generated<number>;
    at: string;
    actor_id: string;
    actor_name: string;
    actor_role: string;
    action: string;
    object_type: string;
    object_id: string | null;
    status: number;
    ip: string;
    user_agent: string | null;
    request_id: string;
    /** JSON object of the request fields that matter (never a secret). */
    details: string;
  };
}
