// The event worker's pass: take pending business events, and for each active rule with that
// event_name send the rule's template with transaction_id = event_id and action = the rule id, so a
// reprocessed event never sends twice. A rule that cannot send (bad recipient, no template) is
// recorded in the event's result; a tenant over its message limits defers the event until the
// window resets.
import type { IngestEventIn } from '@ledgerwire/shared';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors/catalogue.js';
import { isoNow } from '../../foundation/messaging-ids.js';
import type { SendService } from '../services/messages/queue-message.js';
import type { TemplateRenderer } from '../services/templates/template-renderer.js';
import type { TenantService } from '../services/tenants/tenant-service.js';
import type { EventRepository, EventRow } from '../store/events/event-repository.js';

const BATCH = 20;
const LEASE_MS = 5 * 60_000;

type RuleResult = { rule_id: string; message_id?: string; status?: string; error?: string };

export class EventWorker {
  constructor(
    private readonly deps: Readonly<{
      events: EventRepository;
      tenants: TenantService;
      sender: SendService;
      renderer: TemplateRenderer;
      now: () => number;
      log: FastifyBaseLogger;
    }>,
  ) {}

  async runPass(): Promise<boolean> {
    const now = this.deps.now();
    const claimed = await this.deps.events.claimDue(new Date(now).toISOString(), new Date(now + LEASE_MS).toISOString(), BATCH);
    for (const event of claimed) {
      await this.process(event).catch((error: unknown) => {
        this.deps.log.error({ err: error, event_id: event.event_id, tenant_id: event.tenant_id }, 'processing a business event failed');
      });
    }
    return claimed.length === BATCH;
  }

  private async process(event: EventRow): Promise<void> {
    const body = JSON.parse(event.payload) as IngestEventIn;
    const tenant = await this.deps.tenants.get(event.tenant_id);
    if (tenant.status !== 'active') {
      await this.deps.events.finish(event.id, 'failed', { error: 'Tenant inactive' }, isoNow(this.deps.now));
      return;
    }
    const rules = await this.deps.events.activeRules(event.tenant_id, event.event_name);
    const results: RuleResult[] = [];
    for (const rule of rules) {
      try {
        const to = this.deps.renderer.renderPlain(rule.to_template, body).trim();
        const subject = this.deps.renderer.renderPlain(rule.subject_template, body);
        const sent = await this.deps.sender.send(tenant, {
          channel: rule.channel,
          to,
          subject,
          event_key: rule.event_key,
          transaction_id: body.event_id,
          action: rule.id,
          data: body.data,
        });
        results.push({ rule_id: rule.id, message_id: sent.message_id, status: sent.status });
      } catch (error) {
        if (error instanceof AppError && error.status === 429) {
          const retryAfter = Number(error.headers['Retry-After'] ?? 60);
          results.push({ rule_id: rule.id, error: error.message });
          await this.deps.events.defer(event.id, new Date(this.deps.now() + retryAfter * 1000).toISOString(), results);
          return;
        }
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        const detail = error.details.map((d) => d.message).join('; ');
        results.push({ rule_id: rule.id, error: detail ? `${error.message}: ${detail}` : error.message });
      }
    }
    const failed = results.length > 0 && results.every((r) => r.error !== undefined);
    await this.deps.events.finish(event.id, failed ? 'failed' : 'processed', { rules: results }, isoNow(this.deps.now));
  }
}
