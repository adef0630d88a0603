// Event rules (operator API): when an ingested event's name matches, send the rule's template to the
// rendered `to` with the rendered `subject`; both are Handlebars over the event ({{data.customer.email}}).
import type { EventRuleCreateIn, EventRuleOut, EventRuleUpdateIn } from '@ledgerwire/shared';
import { AppError } from '../../../errors/catalogue.js';
import { isoNow, newId } from '../../../foundation/messaging-ids.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';
import type { EventRepository, EventRuleRow } from '../../store/events/event-repository.js';

export class EventRuleService {
  constructor(
    private readonly repository: EventRepository,
    private readonly renderer: TemplateRenderer,
    private readonly now: () => number,
  ) {}

  async create(tenantId: string, input: EventRuleCreateIn): Promise<EventRuleOut> {
    this.renderer.assertCompiles(input.to, 'to');
    this.renderer.assertCompiles(input.subject, 'subject');
    const at = isoNow(this.now);
    const row: EventRuleRow = {
      id: newId('rule'),
      tenant_id: tenantId,
      event_name: input.event_name,
      channel: input.channel,
      event_key: input.event_key,
      to_template: input.to,
      subject_template: input.subject,
      is_active: input.is_active ? 1 : 0,
      created_at: at,
      updated_at: at,
    };
    await this.repository.insertRule(row);
    return eventRuleOut(row);
  }

  async list(tenantId: string): Promise<EventRuleOut[]> {
    return (await this.repository.listRules(tenantId)).map(eventRuleOut);
  }

  async get(tenantId: string, id: string): Promise<EventRuleOut> {
    return eventRuleOut(await this.row(tenantId, id));
  }

  async update(tenantId: string, id: string, patch: EventRuleUpdateIn): Promise<EventRuleOut> {
    const row = await this.row(tenantId, id);
    if (patch.to !== undefined) this.renderer.assertCompiles(patch.to, 'to');
    if (patch.subject !== undefined) this.renderer.assertCompiles(patch.subject, 'subject');
    const next: EventRuleRow = {
      ...row,
      to_template: patch.to ?? row.to_template,
      subject_template: patch.subject ?? row.subject_template,
      event_key: patch.event_key ?? row.event_key,
      is_active: patch.is_active === undefined ? row.is_active : patch.is_active ? 1 : 0,
      updated_at: isoNow(this.now),
    };
    await this.repository.updateRule(id, next);
    return eventRuleOut(next);
  }

  async remove(tenantId: string, id: string): Promise<EventRuleOut> {
    const row = await this.row(tenantId, id);
    await this.repository.deleteRule(id);
    return eventRuleOut(row);
  }

  private async row(tenantId: string, id: string): Promise<EventRuleRow> {
    const row = await this.repository.findRule(tenantId, id);
    if (!row) throw new AppError('event_rule_not_found');
    return row;
  }
}

export function eventRuleOut(row: EventRuleRow): EventRuleOut {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    event_name: row.event_name,
    channel: row.channel as EventRuleOut['channel'],
    event_key: row.event_key,
    to: row.to_template,
    subject: row.subject_template,
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
