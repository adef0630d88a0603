// Admin CLI commands for webhook support, over the same service as the operator routes:
// `webhook-delivery <dlv_id>` shows a delivery; `redeliver-webhook <dlv_id>` queues it again (the
// running relay's delivery loop sends it on its next poll).
import { WEBHOOK_EVENT_TYPES } from '@ledgerwire/shared';
import type { AdminCommand, AdminCommandContext } from '../../foundation/admin-command.js';
import { secretBoxFor } from '../../security/encryption-key.js';
import { WebhookService } from '../services/webhook-service.js';

function serviceFor({ config, database }: AdminCommandContext): WebhookService {
  return new WebhookService({
    db: database.db,
    capabilities: database.capabilities,
    allowPrivateUrls: config.webhookAllowPrivateUrls,
    eventTypes: WEBHOOK_EVENT_TYPES,
    secretBox: secretBoxFor(config),
  });
}

function deliveryId(context: AdminCommandContext): string {
  const id = context.args[0];
  if (id === undefined || id === '') throw new Error('Give the delivery id (dlv_…)');
  return id;
}

export const webhookAdminCommands: Record<string, AdminCommand> = {
  'webhook-delivery': {
    usage: 'webhook-delivery <delivery_id>',
    describe: 'Show a webhook delivery: owner, endpoint URL, attempts and the body sent',
    run: (context) => serviceFor(context).getDeliveryForOperator(deliveryId(context)),
  },
  'redeliver-webhook': {
    usage: 'redeliver-webhook <delivery_id>',
    describe: 'Send a webhook delivery again (the relay delivers it on its next poll)',
    run: (context) => serviceFor(context).redeliverForOperator(deliveryId(context)),
    audit: { action: 'webhook_delivery.redeliver', objectType: 'webhook_delivery', objectId: { arg: 0 } },
  },
};
