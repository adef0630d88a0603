// Admin CLI commands for messaging (`npm run admin -- tenant-create …`): the same services and the
// same zod schemas as the operator API, so the shell and /admin/v1 accept and refuse the same input.
import {
  EventRuleCreateIn,
  TemplateCreateIn,
  TenantCreateIn,
  TenantUpdateIn,
  WEBHOOK_EVENT_TYPES,
  WebhookEndpointCreateIn,
} from '@ledgerwire/shared';
import pino from 'pino';
import type { z } from 'zod';
import type { AdminCommand, AdminCommandContext } from '../../foundation/admin-command.js';
import { secretBoxFor } from '../../security/encryption-key.js';
import { WebhookService } from '../../webhooks/services/webhook-service.js';
import { createMessagingModule, type MessagingModule } from '../messaging-module.js';

function messaging(context: AdminCommandContext): MessagingModule {
  return createMessagingModule({ config: context.config, database: context.database, log: pino({ level: 'silent' }) });
}

/** Options checked by the wire schema, each problem named as the option the operator typed (--org-id). */
function parse<T extends z.ZodType>(schema: T, input: Record<string, unknown>): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new Error(
      result.error.issues
        .map((issue) => {
          const [top] = issue.path;
          const option = `--${issue.path.join('.').replace(/_/g, '-') || 'input'}`;
          return issue.path.length === 1 && typeof top === 'string' && input[top] === undefined ? `${option} is required` : `${option}: ${issue.message}`;
        })
        .join('; '),
    );
  }
  return result.data;
}

function required(args: readonly string[], index: number, name: string): string {
  const value = args[index];
  if (value === undefined) throw new Error(`Missing <${name}>`);
  return value;
}

const json = (text: string | undefined): unknown => (text === undefined ? undefined : (JSON.parse(text) as unknown));
const list = (text: string | undefined) => (text === undefined ? undefined : text.split(',').map((s) => s.trim()));

export const messagingAdminCommands: Record<string, AdminCommand> = {
  'tenant-create': {
    usage: 'tenant-create --name N --org-id ID [--limits JSON] [--provider-order a,b]',
    describe: 'Create a messaging tenant',
    run: async (context) => {
      const { options } = context;
      const input = parse(TenantCreateIn, {
        name: options['name'],
        org_id: options['org-id'] === undefined ? undefined : Number(options['org-id']),
        limits: json(options['limits']),
        provider_order: list(options['provider-order']),
      });
      return { tenant: await messaging(context).tenants.create(input) };
    },
    audit: { action: 'tenant.create', objectType: 'tenant', objectId: { result: ['tenant.id'] } },
  },
  'tenant-list': {
    usage: 'tenant-list',
    describe: 'List messaging tenants with their effective limits',
    run: async (context) => ({ tenants: await messaging(context).tenants.list() }),
  },
  'tenant-update': {
    usage: 'tenant-update <tenant_id> [--name N] [--status active|suspended] [--limits JSON] [--provider-order a,b]',
    describe: 'Change a tenant (suspend, limits, provider order)',
    run: async (context) => {
      const { options } = context;
      const patch = parse(TenantUpdateIn, {
        name: options['name'],
        status: options['status'],
        limits: json(options['limits']),
        provider_order: list(options['provider-order']),
      });
      return { tenant: await messaging(context).tenants.update(required(context.args, 0, 'tenant_id'), patch) };
    },
    audit: { action: 'tenant.update', objectType: 'tenant', objectId: { arg: 0 } },
  },
  'api-key-create': {
    usage: 'api-key-create <tenant_id> [--test]',
    describe: 'Issue a tenant API key (printed once); --test issues a test key (outbox only, simulated events)',
    run: async (context) => messaging(context).tenants.createApiKey(required(context.args, 0, 'tenant_id'), context.options['test'] === 'true' ? 'test' : 'live'),
    audit: { action: 'tenant_api_key.create', objectType: 'tenant_api_key', objectId: { result: ['prefix'] } },
  },
  'api-key-revoke': {
    usage: 'api-key-revoke <tenant_id> <prefix>',
    describe: 'Revoke a tenant API key',
    run: async (context) => ({
      api_key: await messaging(context).tenants.revokeApiKey(required(context.args, 0, 'tenant_id'), required(context.args, 1, 'prefix')),
    }),
    audit: { action: 'tenant_api_key.revoke', objectType: 'tenant_api_key', objectId: { arg: 1 } },
  },
  'template-create': {
    usage: 'template-create <tenant_id> --event-key K --subject S --html H [--text T] [--channel email] [--inactive]',
    describe: 'Create a template (Handlebars)',
    run: async (context) => {
      const { options } = context;
      const tenantId = (await messaging(context).tenants.get(required(context.args, 0, 'tenant_id'))).id;
      const input = parse(TemplateCreateIn, {
        event_key: options['event-key'],
        channel: options['channel'] ?? 'email',
        subject: options['subject'],
        html: options['html'],
        text: options['text'],
        is_active: options['inactive'] !== 'true',
      });
      return { template: await messaging(context).templates.create(tenantId, input) };
    },
    audit: { action: 'template.create', objectType: 'template', objectId: { result: ['template.id'] } },
  },
  'template-list': {
    usage: 'template-list <tenant_id>',
    describe: 'List a tenant’s templates',
    run: async (context) => {
      const tenantId = (await messaging(context).tenants.get(required(context.args, 0, 'tenant_id'))).id;
      return { templates: await messaging(context).templates.list(tenantId) };
    },
  },
  'event-rule-create': {
    usage: 'event-rule-create <tenant_id> --event-name E --event-key K --to T --subject S [--channel email]',
    describe: 'Create an event rule (to/subject may use {{data.…}})',
    run: async (context) => {
      const { options } = context;
      const tenantId = (await messaging(context).tenants.get(required(context.args, 0, 'tenant_id'))).id;
      const input = parse(EventRuleCreateIn, {
        event_name: options['event-name'],
        channel: options['channel'] ?? 'email',
        event_key: options['event-key'],
        to: options['to'],
        subject: options['subject'],
      });
      return { event_rule: await messaging(context).eventRules.create(tenantId, input) };
    },
    audit: { action: 'event_rule.create', objectType: 'event_rule', objectId: { result: ['event_rule.id'] } },
  },
  'tenant-webhook-create': {
    usage: 'tenant-webhook-create <tenant_id> --url URL [--events message.sent,message.failed]',
    describe: 'Add a status webhook for a tenant (secret printed once)',
    run: async (context) => {
      const tenantId = (await messaging(context).tenants.get(required(context.args, 0, 'tenant_id'))).id;
      const input = parse(WebhookEndpointCreateIn, { url: context.options['url'], events: list(context.options['events']) });
      const webhooks = new WebhookService({
        db: context.database.db,
        capabilities: context.database.capabilities,
        allowPrivateUrls: context.config.webhookAllowPrivateUrls,
        eventTypes: WEBHOOK_EVENT_TYPES,
        secretBox: secretBoxFor(context.config),
      });
      const { endpoint, secret } = await webhooks.createEndpoint({ kind: 'tenant', id: tenantId }, input);
      return { webhook: { ...endpoint, secret } };
    },
    audit: { action: 'webhook.create', objectType: 'webhook', objectId: { result: ['webhook.id'] } },
  },
};
