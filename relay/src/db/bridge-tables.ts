// Kysely table types of the accounting bridge (migrations 0200–0202), listed in db/schema.ts.
// Timestamps are ISO strings, booleans 0/1, JSON as text.
import type { Generated } from 'kysely';

export interface ApplicationsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface BridgeApiKeysTable {
  key_id: string;
  application_id: string;
  environment: string;
  /** JSON array of capability names. */
  capabilities: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CustomersTable {
  id: string;
  application_id: string;
  name: string;
  external_id: string | null;
  /** The token's first characters, to find the row; the token itself is kept only as SHA-256. */
  token_prefix: string;
  token_hash: string;
  token_rotated_at: string | null;
  created_at: string;
}

export interface CompaniesTable {
  id: Generated<number>;
  application_id: string;
  customer_id: string | null;
  name: string;
  connector_id: string | null;
  books_company_guid: string | null;
  books_company_name: string | null;
  pull_masters: number;
  report_stock: number;
  report_gst: number;
  paired_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TransactionsTable {
  id: Generated<number>;
  job_id: string;
  company_id: number;
  application_id: string;
  client_transaction_id: string | null;
  job_type: 'voucher' | 'master';
  event_type: string;
  master_type: string | null;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  retry_count: number;
  max_retries: number;
  /** JSON summary shown to callers (voucher_number, voucher_type, …). */
  payload: string;
  /** The voucher an alteration targets (the caller sent books_voucher_guid). */
  target_voucher_guid: string | null;
  books_voucher_guid: string | null;
  books_master_id: string | null;
  books_alter_id: string | null;
  error_code: string | null;
  error_label: string | null;
  error_message: string | null;
  /** The connector the job was last leased to. */
  connector_id: string | null;
  lease_expires_at: string | null;
  /** The connector session holding the lease while processing (0203). */
  lease_session: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** A transaction's document and XML, written once at acceptance (0204): apart from its often-updated row. */
export interface TransactionDocumentsTable {
  transaction_id: number;
  /** JSON body as submitted, so the XML can be rendered again for a renamed books company. */
  document: string;
  xml: string;
  /** The books company name `xml` was rendered for. */
  xml_company_name: string;
  /** SHA-256 of the write's canonical body (0260): a repeat of its transaction_id must match it. Null before 0260. */
  request_fingerprint: string | null;
}

export interface PulledVouchersTable {
  id: Generated<number>;
  company_id: number;
  transaction_id: string;
  books_voucher_guid: string;
  alter_id: string;
  voucher_kind: string;
  voucher_type: string;
  voucher_number: string | null;
  /** YYYYMMDD, as the contract shows pulled dates. */
  voucher_date: string;
  party_ledger: string | null;
  data: string;
  status: 'pending' | 'acknowledged';
  acknowledged_alter_id: string | null;
  acknowledged_at: string | null;
  deleted: number;
  created_at: string;
  updated_at: string;
}

export interface PulledMastersTable {
  id: Generated<number>;
  company_id: number;
  master_type: string;
  name: string;
  books_master_guid: string;
  master_id: string | null;
  alter_id: string | null;
  parent: string | null;
  reserved_name: string | null;
  data: string;
  deleted: number;
  created_at: string;
  updated_at: string;
}

export interface ReportSnapshotsTable {
  company_id: number;
  report_key: string;
  rows: string;
  row_count: number;
  updated_at: string;
}

export interface BridgeTables {
  applications: ApplicationsTable;
  bridge_api_keys: BridgeApiKeysTable;
  customers: CustomersTable;
  companies: CompaniesTable;
  transactions: TransactionsTable;
  transaction_documents: TransactionDocumentsTable;
  pulled_vouchers: PulledVouchersTable;
  pulled_masters: PulledMastersTable;
  report_snapshots: ReportSnapshotsTable;
}
