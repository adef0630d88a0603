// Kysely table type of connect sessions (migration 0340-connect-sessions), listed in db/schema.ts.

export type StoredConnectSessionStatus = 'pending' | 'connector_enrolled' | 'completed' | 'cancelled';

export interface ConnectSessionsTable {
  id: string;
  application_id: string;
  customer_id: string;
  company_id: number;
  status: StoredConnectSessionStatus;
  /** `hmac:v1:<hex>`: HMAC-SHA256 of the canonical setup code (K7QPM3XD) under a relay key (security/keyed-digest.ts). */
  setup_code_hash: string;
  /** `hmac:v1:<hex>`: HMAC-SHA256 of the hosted page's token (the last segment of the session's url), keyed likewise. */
  page_token_hash: string;
  return_url: string | null;
  /** The connector enrolled with this session's code (it enrols one, once). */
  connector_id: string | null;
  expires_at: string;
  connector_enrolled_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}
