// The relay's webhook delivery engine: the service the messaging service and the accounting bridge
// call, the background loop that sends, and the operator routes for console support.
export { WebhookService, type WebhookDeliveryDetail, type WebhookServiceDeps } from './services/webhook-service.js';
export type {
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEndpointRecord,
  WebhookOwner,
  WebhookOwnerKind,
} from './store/webhook-records.js';
export { createWebhookDeliveryLoop, WEBHOOK_LOOP_INTERVAL_MS } from './workers/webhook-delivery-loop.js';
export { WebhookDeliveryWorker, WEBHOOK_REQUEST_TIMEOUT_MS, DISABLE_AFTER_FAILING_MS } from './workers/webhook-delivery-worker.js';
export { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './services/webhook-retry-schedule.js';
export { RETIRED_SECRET_OVERLAP_MS } from './services/webhook-signing.js';
export { isNonPublicAddress, type HostResolver } from './services/webhook-url-policy.js';
export { webhookOperatorRoutes } from './admin/webhook-operator-routes.js';
