// The webhook event types each kind of owner can subscribe to: a messaging tenant gets message status
// changes, a bridge application gets connector, books and company presence changes (the bridge
// contract's six) and the outcomes of its writes (transaction.completed / transaction.failed, so an
// integrator need not poll), and the end of a connect session (connect_session.completed).
// `webhook.test` is sent only on request, to one endpoint, whatever its filter.
import { z } from 'zod';

export const TENANT_WEBHOOK_EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.opened',
  'message.clicked',
  'message.bounced',
  'message.failed',
] as const;

export const APPLICATION_WEBHOOK_EVENT_TYPES = [
  'connector.online',
  'connector.offline',
  'books.started',
  'books.stopped',
  'company.linked',
  'company.unlinked',
  'transaction.completed',
  'transaction.failed',
  'connect_session.completed',
] as const;

export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** Event types by owner kind, as the relay's webhook service takes them. */
export const WEBHOOK_EVENT_TYPES = Object.freeze({
  tenant: TENANT_WEBHOOK_EVENT_TYPES,
  application: APPLICATION_WEBHOOK_EVENT_TYPES,
});

export const TenantWebhookEventType = z.enum(TENANT_WEBHOOK_EVENT_TYPES);
export type TenantWebhookEventType = z.infer<typeof TenantWebhookEventType>;

export const ApplicationWebhookEventType = z.enum(APPLICATION_WEBHOOK_EVENT_TYPES);
export type ApplicationWebhookEventType = z.infer<typeof ApplicationWebhookEventType>;
