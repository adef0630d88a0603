// Table types for Kysely. Each service adds its tables here, next to the migration that creates them.
// Timestamps are ISO 8601 strings in UTC on both dialects; booleans are 0/1 integers.
import type { Generated } from 'kysely';
import type { BridgeTables } from './bridge-tables.js';
import type { ConnectSessionsTable } from './connect-session-tables.js';
import type { ConnectorTables } from './connector-tables.js';
import type { OperatorTables } from './operator-tables.js';

export interface RelaySettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

// Webhooks (0010-webhooks). Owner = a messaging tenant or a bridge application.
export interface WebhookEndpointsTable {
  id: string;
  owner_kind: string;
  owner_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  description: string | null;
  enabled: number;
  disabled_reason: string | null;
  /** whsec_… sealed (enc:v1:…, AES-256-GCM): HMAC signing needs the key itself (see webhook-endpoint-repository.ts). */
  secret: string;
  /** JSON array of {secret (sealed), expires_at}: secrets replaced by a rotation that still sign for 24 h. */
  retired_secrets: string;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface WebhookEventsTable {
  id: string;
  owner_kind: string;
  owner_id: string;
  type: string;
  /** The exact JSON body sent and signed. */
  payload: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  owner_kind: string;
  owner_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  claim_token: string | null;
  claimed_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt_number: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: string | null;
  /** The start of the receiver's response body (0270); null when it sent none or never answered. */
  response_body: string | null;
}

// Messaging (0100-messaging) and rate-limit counters (0101-rate-limit-counters).
export interface MsgTenantsTable {
  id: string;
  name: string;
  org_id: number;
  status: string;
  /** JSON object of per-tenant limit overrides. */
  limits: string;
  /** JSON array of provider names; null = the relay default. */
  provider_order: string | null;
  created_at: string;
  updated_at: string;
}

export interface MsgApiKeysTable {
  prefix: string;
  tenant_id: string;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface MsgTemplatesTable {
  id: string;
  tenant_id: string;
  event_key: string;
  channel: string;
  subject: string;
  html: string;
  text: string | null;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface MsgMessagesTable {
  id: string;
  tenant_id: string;
  business_event_id: string;
  transaction_id: string;
  action: string;
  request_hash: string;
  channel: string;
  to_address: string;
  subject: string;
  html: string;
  text: string | null;
  event_key: string;
  template_id: string;
  template_fallback: number;
  status: string;
  status_rank: number;
  provider: string | null;
  provider_message_id: string | null;
  attempts: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  /** Decoded bytes of the message's attachments (0310); 0 without any (the column's default). */
  attachment_bytes: Generated<number>;
  /** JSON object of strings, or null without any (0312). */
  metadata: string | null;
  /** JSON array of strings, or null without any (0312). */
  tags: string | null;
  /** 1 when sent with a test key (0313): outbox only, simulated events; 0 (the default) when live. */
  test_mode: Generated<number>;
}

export interface MsgRefusedSendsTable {
  id: string;
  tenant_id: string;
  code: string;
  status: number;
  reason: string;
  event_key: string | null;
  channel: string | null;
  to_address: string | null;
  transaction_id: string | null;
  refused_at: string;
}

export interface MsgMessageTagsTable {
  message_id: string;
  tenant_id: string;
  tag: string;
  created_at: string;
}

export interface MsgAttachmentsTable {
  message_id: string;
  position: number;
  filename: string;
  content_type: string;
  content_id: string | null;
  size: number;
  /** The base64 text, until the message is sent or failed; then NULL. */
  content: string | null;
}

export interface MsgSuppressionsTable {
  tenant_id: string;
  /** Lowercased. */
  email: string;
  reason: string;
  /** The message whose provider event put the address here, if any. */
  message_id: string | null;
  created_at: string;
}

export interface MsgMessageEventsTable {
  id: string;
  message_id: string;
  type: string;
  status: string | null;
  provider: string | null;
  provider_event_id: string | null;
  /** JSON object or null. */
  detail: string | null;
  occurred_at: string;
  recorded_at: string;
}

export interface MsgEventsTable {
  id: string;
  tenant_id: string;
  event_id: string;
  event_name: string;
  /** The ingested body as JSON. */
  payload: string;
  status: string;
  next_attempt_at: string | null;
  lease_until: string | null;
  result: string | null;
  created_at: string;
  processed_at: string | null;
}

export interface MsgEventRulesTable {
  id: string;
  tenant_id: string;
  event_name: string;
  channel: string;
  event_key: string;
  to_template: string;
  subject_template: string;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface RateLimitCountersTable {
  scope: string;
  window_start: number;
  count: number;
  expires_at: number;
}

export interface Database {
  relay_settings: RelaySettingsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  msg_tenants: MsgTenantsTable;
  msg_api_keys: MsgApiKeysTable;
  msg_templates: MsgTemplatesTable;
  msg_messages: MsgMessagesTable;
  msg_message_events: MsgMessageEventsTable;
  msg_attachments: MsgAttachmentsTable;
  msg_suppressions: MsgSuppressionsTable;
  msg_message_tags: MsgMessageTagsTable;
  msg_refused_sends: MsgRefusedSendsTable;
  msg_events: MsgEventsTable;
  msg_event_rules: MsgEventRulesTable;
  rate_limit_counters: RateLimitCountersTable;
  // Accounting bridge (0200–0204): db/bridge-tables.ts
  applications: BridgeTables['applications'];
  bridge_api_keys: BridgeTables['bridge_api_keys'];
  customers: BridgeTables['customers'];
  companies: BridgeTables['companies'];
  transactions: BridgeTables['transactions'];
  transaction_documents: BridgeTables['transaction_documents'];
  pulled_vouchers: BridgeTables['pulled_vouchers'];
  pulled_masters: BridgeTables['pulled_masters'];
  report_snapshots: BridgeTables['report_snapshots'];
  // Connector gateway (0250): db/connector-tables.ts
  connectors: ConnectorTables['connectors'];
  connector_sync_cursors: ConnectorTables['connector_sync_cursors'];
  // Connect sessions (0340): db/connect-session-tables.ts
  connect_sessions: ConnectSessionsTable;
  // Operator accounts and audit log (0300): db/operator-tables.ts
  operator_accounts: OperatorTables['operator_accounts'];
  operator_audit_log: OperatorTables['operator_audit_log'];
}

export type { Generated };
