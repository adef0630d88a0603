// Operator API bodies for templates (/admin/v1/tenants/{id}/templates…) and event rules.
import { z } from 'zod';
import { Channel } from './delivery-status.js';

const eventKey = z.string().trim().min(1).max(100).describe('Template name the send request’s event_key selects');

export const TemplateCreateIn = z
  .object({
    event_key: eventKey,
    channel: Channel,
    subject: z.string().min(1).max(998).describe('Handlebars; used for sends that carry no subject of their own (a send’s subject wins), and by preview'),
    html: z.string().min(1).max(512 * 1024).describe('Handlebars; values are HTML-escaped'),
    text: z.string().max(512 * 1024).nullable().optional().describe('Handlebars plain-text part'),
    is_active: z.boolean().default(true),
  })
  .meta({ id: 'TemplateCreateIn' });
export type TemplateCreateIn = z.infer<typeof TemplateCreateIn>;

export const TemplateUpdateIn = z
  .object({
    subject: z.string().min(1).max(998).optional(),
    html: z.string().min(1).max(512 * 1024).optional(),
    text: z.string().max(512 * 1024).nullable().optional(),
    is_active: z.boolean().optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'must change at least one field')
  .meta({ id: 'TemplateUpdateIn' });
export type TemplateUpdateIn = z.infer<typeof TemplateUpdateIn>;

export const TemplateOut = z
  .object({
    id: z.string().describe('tpl_…'),
    tenant_id: z.string(),
    event_key: z.string(),
    channel: Channel,
    subject: z.string(),
    html: z.string(),
    text: z.string().nullable(),
    is_active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'TemplateOut' });
export type TemplateOut = z.infer<typeof TemplateOut>;

export const TemplateEnvelopeOut = z.object({ success: z.literal(true), template: TemplateOut }).meta({ id: 'TemplateEnvelopeOut' });
export const TemplateListOut = z.object({ success: z.literal(true), templates: z.array(TemplateOut) }).meta({ id: 'TemplateListOut' });

export const TemplatePreviewIn = z
  .object({ data: z.record(z.string(), z.unknown()).default({}), subject: z.string().max(998).optional() })
  .meta({ id: 'TemplatePreviewIn' });
export type TemplatePreviewIn = z.infer<typeof TemplatePreviewIn>;

export const TemplatePreviewOut = z
  .object({ success: z.literal(true), subject: z.string(), html: z.string(), text: z.string().nullable() })
  .meta({ id: 'TemplatePreviewOut' });
export type TemplatePreviewOut = z.infer<typeof TemplatePreviewOut>;

export const EventRuleCreateIn = z
  .object({
    event_name: z.string().trim().min(1).max(100).describe('Matches the ingested event_name exactly'),
    channel: Channel,
    event_key: eventKey,
    to: z.string().min(1).max(500).describe('Recipient; Handlebars over the event, e.g. {{data.customer.email}}'),
    subject: z.string().min(1).max(998).describe('Handlebars over the event'),
    is_active: z.boolean().default(true),
  })
  .meta({ id: 'EventRuleCreateIn' });
export type EventRuleCreateIn = z.infer<typeof EventRuleCreateIn>;

export const EventRuleUpdateIn = z
  .object({
    to: z.string().min(1).max(500).optional(),
    subject: z.string().min(1).max(998).optional(),
    event_key: eventKey.optional(),
    is_active: z.boolean().optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'must change at least one field')
  .meta({ id: 'EventRuleUpdateIn' });
export type EventRuleUpdateIn = z.infer<typeof EventRuleUpdateIn>;

export const EventRuleOut = z
  .object({
    id: z.string().describe('rule_…'),
    tenant_id: z.string(),
    event_name: z.string(),
    channel: Channel,
    event_key: z.string(),
    to: z.string(),
    subject: z.string(),
    is_active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'EventRuleOut' });
export type EventRuleOut = z.infer<typeof EventRuleOut>;

export const EventRuleEnvelopeOut = z.object({ success: z.literal(true), event_rule: EventRuleOut }).meta({ id: 'EventRuleEnvelopeOut' });
export const EventRuleListOut = z.object({ success: z.literal(true), event_rules: z.array(EventRuleOut) }).meta({ id: 'EventRuleListOut' });
