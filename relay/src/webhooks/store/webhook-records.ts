// What the webhook service hands out: endpoint and delivery records (never the signing secret), and
// the mapping from table rows to them.
import type { Selectable } from 'kysely';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema.js';

export type WebhookOwnerKind = 'tenant' | 'application';
export type WebhookOwner = Readonly<{ kind: WebhookOwnerKind; id: string }>;

export type WebhookEndpointRecord = Readonly<{
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}>;

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export type WebhookAttemptRecord = Readonly<{
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: string | null;
  /** The start of the receiver's answer; null when it sent none or never answered. */
  response_body: string | null;
}>;

export type WebhookDeliveryRecord = Readonly<{
  id: string;
  event_id: string;
  endpoint_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  attempts: WebhookAttemptRecord[];
}>;

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

export function parseEventList(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function toEndpointRecord(row: EndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    url: row.url,
    events: parseEventList(row.events),
    description: row.description,
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toAttemptRecord(row: AttemptRow): WebhookAttemptRecord {
  return {
    attempted_at: row.attempted_at,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    next_attempt_at: row.next_attempt_at,
    response_body: row.response_body,
  };
}

export function toDeliveryRecord(row: DeliveryRow, attempts: readonly AttemptRow[]): WebhookDeliveryRecord {
  return {
    id: row.id,
    event_id: row.event_id,
    endpoint_id: row.endpoint_id,
    event_type: row.event_type,
    status: row.status as WebhookDeliveryStatus,
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at,
    created_at: row.created_at,
    attempts: [...attempts].sort((a, b) => a.attempt_number - b.attempt_number).map(toAttemptRecord),
  };
}
