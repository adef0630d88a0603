// Operator API for a tenant's templates and event rules: /admin/v1/tenants/{id}/templates…, …/event-rules…
import {
  EventRuleCreateIn,
  EventRuleEnvelopeOut,
  EventRuleListOut,
  EventRuleUpdateIn,
  TemplateCreateIn,
  TemplateEnvelopeOut,
  TemplateListOut,
  TemplatePreviewIn,
  TemplatePreviewOut,
  TemplateUpdateIn,
} from '@ledgerwire/shared';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const tenantParams = z.object({ id: z.string().min(1).max(60) });
const templateParams = tenantParams.extend({ template_id: z.string().min(1).max(60) });
const ruleParams = tenantParams.extend({ rule_id: z.string().min(1).max(60) });
const security = [{ operatorToken: [] }];
const tags = ['operator'];

export const templateAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { templates, eventRules, tenants } = app.messaging;
  // Every route first proves the tenant exists, so an unknown tenant is tenant_not_found.
  const tenantId = async (id: string) => (await tenants.get(id)).id;
  app.post(
    '/tenants/:id/templates',
    { schema: { tags, security, summary: 'Create a template', params: tenantParams, body: TemplateCreateIn, response: { 201: TemplateEnvelopeOut } } },
    async (request, reply) =>
      reply.code(201).send({ success: true as const, template: await templates.create(await tenantId(request.params.id), request.body) }),
  );
  app.get(
    '/tenants/:id/templates',
    { schema: { tags, security, summary: 'List a tenant’s templates', params: tenantParams, response: { 200: TemplateListOut } } },
    async (request) => ({ success: true as const, templates: await templates.list(await tenantId(request.params.id)) }),
  );
  app.get(
    '/tenants/:id/templates/:template_id',
    { schema: { tags, security, summary: 'A template', params: templateParams, response: { 200: TemplateEnvelopeOut } } },
    async (request) => ({ success: true as const, template: await templates.get(await tenantId(request.params.id), request.params.template_id) }),
  );
  app.patch(
    '/tenants/:id/templates/:template_id',
    { schema: { tags, security, summary: 'Change a template', params: templateParams, body: TemplateUpdateIn, response: { 200: TemplateEnvelopeOut } } },
    async (request) => ({
      success: true as const,
      template: await templates.update(await tenantId(request.params.id), request.params.template_id, request.body),
    }),
  );
  app.post(
    '/tenants/:id/templates/:template_id/preview',
    {
      schema: { tags, security, summary: 'Render a template with sample data', params: templateParams, body: TemplatePreviewIn, response: { 200: TemplatePreviewOut } },
    },
    async (request) => ({
      success: true as const,
      ...(await templates.preview(await tenantId(request.params.id), request.params.template_id, request.body)),
    }),
  );

  app.post(
    '/tenants/:id/event-rules',
    { schema: { tags, security, summary: 'Create an event rule', params: tenantParams, body: EventRuleCreateIn, response: { 201: EventRuleEnvelopeOut } } },
    async (request, reply) =>
      reply.code(201).send({ success: true as const, event_rule: await eventRules.create(await tenantId(request.params.id), request.body) }),
  );
  app.get(
    '/tenants/:id/event-rules',
    { schema: { tags, security, summary: 'List a tenant’s event rules', params: tenantParams, response: { 200: EventRuleListOut } } },
    async (request) => ({ success: true as const, event_rules: await eventRules.list(await tenantId(request.params.id)) }),
  );
  app.patch(
    '/tenants/:id/event-rules/:rule_id',
    { schema: { tags, security, summary: 'Change an event rule', params: ruleParams, body: EventRuleUpdateIn, response: { 200: EventRuleEnvelopeOut } } },
    async (request) => ({
      success: true as const,
      event_rule: await eventRules.update(await tenantId(request.params.id), request.params.rule_id, request.body),
    }),
  );
  app.delete(
    '/tenants/:id/event-rules/:rule_id',
    { schema: { tags, security, summary: 'Delete an event rule', params: ruleParams, response: { 200: EventRuleEnvelopeOut } } },
    async (request) => ({ success: true as const, event_rule: await eventRules.remove(await tenantId(request.params.id), request.params.rule_id) }),
  );
};
