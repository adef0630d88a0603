// The one map of what every /admin/v1 route needs: the lowest role that may call it, and for each
// mutating route the audit action and the object it acts on. operator-access.ts enforces the roles
// and audit-recorder.ts writes the audit entries from this map; a test walks the registered routes
// and fails for any /admin/v1 route missing here. A route absent at run time needs admin (fail closed).
import type { OperatorRole } from '@ledgerwire/shared';

export type AuditedObject = Readonly<{
  type: string;
  /** The path parameter holding the object's id. */
  param?: string;
  /** Where a create answer holds the new object's id (dotted path), when the path has none. */
  fromResponse?: string;
}>;

export type OperatorRouteRule = Readonly<{
  role: OperatorRole;
  /** Mutating routes only: what the audit log calls this action and what it acts on. */
  audit?: Readonly<{ action: string; object: AuditedObject }>;
}>;

const read: OperatorRouteRule = { role: 'viewer' };
/** A POST that changes nothing (renders a preview): viewer, not audited. */
const readOnlyPost: OperatorRouteRule = { role: 'viewer' };
const support = (action: string, object: AuditedObject): OperatorRouteRule => ({ role: 'support', audit: { action, object } });
const admin = (action: string, object: AuditedObject): OperatorRouteRule => ({ role: 'admin', audit: { action, object } });

const P = '/admin/v1';

export const OPERATOR_ROUTE_RULES: Readonly<Record<string, OperatorRouteRule>> = Object.freeze({
  [`GET ${P}/whoami`]: read,
  [`GET ${P}/audit-log`]: read,

  // Operator accounts (admin only, including reads: they name every operator).
  [`GET ${P}/operators`]: { role: 'admin' },
  [`GET ${P}/operators/:id`]: { role: 'admin' },
  [`POST ${P}/operators`]: admin('operator.create', { type: 'operator', fromResponse: 'operator.id' }),
  [`POST ${P}/operators/:id/rotate-token`]: admin('operator.rotate_token', { type: 'operator', param: 'id' }),
  [`DELETE ${P}/operators/:id`]: admin('operator.revoke', { type: 'operator', param: 'id' }),

  // Webhook deliveries (both services).
  [`GET ${P}/webhook-deliveries/:id`]: read,
  [`POST ${P}/webhook-deliveries/:id/redeliver`]: support('webhook_delivery.redeliver', { type: 'webhook_delivery', param: 'id' }),

  // Messaging tenants, keys, templates, event rules, status webhooks.
  [`GET ${P}/tenants`]: read,
  [`POST ${P}/tenants`]: admin('tenant.create', { type: 'tenant', fromResponse: 'tenant.id' }),
  [`GET ${P}/tenants/:id`]: read,
  [`PATCH ${P}/tenants/:id`]: admin('tenant.update', { type: 'tenant', param: 'id' }),
  [`GET ${P}/tenants/:id/api-keys`]: read,
  [`POST ${P}/tenants/:id/api-keys`]: admin('tenant_api_key.create', { type: 'tenant_api_key', fromResponse: 'prefix' }),
  [`DELETE ${P}/tenants/:id/api-keys/:prefix`]: admin('tenant_api_key.revoke', { type: 'tenant_api_key', param: 'prefix' }),
  [`GET ${P}/tenants/:id/templates`]: read,
  [`POST ${P}/tenants/:id/templates`]: admin('template.create', { type: 'template', fromResponse: 'template.id' }),
  [`GET ${P}/tenants/:id/templates/:template_id`]: read,
  [`PATCH ${P}/tenants/:id/templates/:template_id`]: admin('template.update', { type: 'template', param: 'template_id' }),
  [`POST ${P}/tenants/:id/templates/:template_id/preview`]: readOnlyPost,
  [`GET ${P}/tenants/:id/event-rules`]: read,
  [`POST ${P}/tenants/:id/event-rules`]: admin('event_rule.create', { type: 'event_rule', fromResponse: 'event_rule.id' }),
  [`PATCH ${P}/tenants/:id/event-rules/:rule_id`]: admin('event_rule.update', { type: 'event_rule', param: 'rule_id' }),
  [`DELETE ${P}/tenants/:id/event-rules/:rule_id`]: admin('event_rule.delete', { type: 'event_rule', param: 'rule_id' }),
  [`GET ${P}/tenants/:id/webhooks`]: read,
  [`POST ${P}/tenants/:id/webhooks`]: admin('webhook.create', { type: 'webhook', fromResponse: 'webhook.id' }),
  [`PATCH ${P}/tenants/:id/webhooks/:webhook_id`]: admin('webhook.update', { type: 'webhook', param: 'webhook_id' }),
  [`DELETE ${P}/tenants/:id/webhooks/:webhook_id`]: admin('webhook.delete', { type: 'webhook', param: 'webhook_id' }),
  [`POST ${P}/tenants/:id/webhooks/:webhook_id/rotate-secret`]: admin('webhook.rotate_secret', { type: 'webhook', param: 'webhook_id' }),
  [`POST ${P}/tenants/:id/webhooks/:webhook_id/test`]: support('webhook.test', { type: 'webhook', param: 'webhook_id' }),
  [`GET ${P}/tenants/:id/webhooks/:webhook_id/deliveries`]: read,
  [`GET ${P}/tenants/:id/suppressions`]: read,
  [`DELETE ${P}/tenants/:id/suppressions/:email`]: support('suppression.remove', { type: 'suppression', param: 'email' }),

  // Accounting bridge: applications and keys (admin), customers and companies (support acts).
  [`GET ${P}/applications`]: read,
  [`POST ${P}/applications`]: admin('application.create', { type: 'application', fromResponse: 'application.id' }),
  [`GET ${P}/applications/:id`]: read,
  [`GET ${P}/applications/:id/keys`]: read,
  [`POST ${P}/applications/:id/keys`]: admin('api_key.create', { type: 'api_key', fromResponse: 'key_id' }),
  [`DELETE ${P}/keys/:key_id`]: admin('api_key.revoke', { type: 'api_key', param: 'key_id' }),
  [`GET ${P}/customers`]: read,
  [`POST ${P}/customers/:id/rotate-token`]: support('customer.rotate_token', { type: 'customer', param: 'id' }),
  [`GET ${P}/customers/:id/connect-sessions`]: read,
  [`POST ${P}/connect-sessions/:id/cancel`]: support('connect_session.cancel', { type: 'connect_session', param: 'id' }),
  [`GET ${P}/companies`]: read,
  [`GET ${P}/companies/:id`]: read,
  [`PATCH ${P}/companies/:id`]: admin('company.update_settings', { type: 'company', param: 'id' }),
  [`POST ${P}/companies/:id/pair`]: support('company.pair', { type: 'company', param: 'id' }),
  [`POST ${P}/companies/:id/disconnect`]: support('company.disconnect', { type: 'company', param: 'id' }),
  [`POST ${P}/companies/:id/customer`]: support('company.attach_customer', { type: 'company', param: 'id' }),
  [`DELETE ${P}/companies/:id/customer`]: support('company.detach_customer', { type: 'company', param: 'id' }),
  [`GET ${P}/connectors`]: read,
  [`GET ${P}/transactions`]: read,
  [`GET ${P}/transactions/:id`]: read,

  // Console queries and actions.
  [`GET ${P}/console/tenants/:id/messages`]: read,
  [`GET ${P}/console/tenants/:id/messages/:message_id`]: read,
  [`GET ${P}/console/tenants/:id/refused-sends`]: read,
  [`POST ${P}/console/tenants/:id/template-previews`]: readOnlyPost,
  [`POST ${P}/console/tenants/:id/template-samples`]: readOnlyPost,
  [`GET ${P}/console/transactions`]: read,
  [`GET ${P}/console/transactions/:job_id`]: read,
  [`GET ${P}/console/pulled-data`]: read,
  [`GET ${P}/console/webhooks`]: read,
  [`GET ${P}/console/background-loops`]: read,
  [`GET ${P}/console/webhooks/:endpoint_id/deliveries`]: read,
  [`POST ${P}/console/webhooks/:endpoint_id/test`]: support('webhook.test', { type: 'webhook', param: 'endpoint_id' }),
  // Enabling a failing endpoint again is the step before redelivering to it: a support action.
  [`POST ${P}/console/webhooks/:endpoint_id/state`]: support('webhook.set_state', { type: 'webhook', param: 'endpoint_id' }),
  [`DELETE ${P}/console/webhooks/:endpoint_id`]: admin('webhook.delete', { type: 'webhook', param: 'endpoint_id' }),
  [`GET ${P}/console/companies`]: read,
  [`GET ${P}/console/companies/:id`]: read,
});

const FAIL_CLOSED: OperatorRouteRule = { role: 'admin', audit: { action: 'undeclared_route', object: { type: 'route' } } };

export function operatorRouteKey(method: string, url: string): string {
  // HEAD answers as GET does (Fastify adds it for every GET route).
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

/** The rule for a registered route; an undeclared route needs admin and is audited. */
export function operatorRouteRule(method: string, url: string): OperatorRouteRule {
  return OPERATOR_ROUTE_RULES[operatorRouteKey(method, url)] ?? FAIL_CLOSED;
}

export function hasOperatorRouteRule(method: string, url: string): boolean {
  return operatorRouteKey(method, url) in OPERATOR_ROUTE_RULES;
}

export function isOperatorRoute(url: string | undefined): url is string {
  return url !== undefined && (url === P || url.startsWith(`${P}/`));
}
