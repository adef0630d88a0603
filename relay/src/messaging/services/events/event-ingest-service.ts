// POST /api/events: checks the org, then stores the event and counts it against the tenant's event
// limit in one transaction. A repeated event_id is a duplicate (200) and counts nothing. Processing
// happens later, in the event worker.
import type { IngestEventIn, IngestEventOut } from '@ledgerwire/shared';
import { AppError } from '../../../errors/catalogue.js';
import { rateLimitHeaders, type RateLimiter } from '../../../limits/rate-limiter.js';
import { isoNow, newId } from '../../../foundation/messaging-ids.js';
import { limitRules } from '../../store/tenants/tenant-limits.js';
import { insertCountedEvent } from '../../store/events/insert-counted-event.js';
import type { Tenant } from '../tenants/tenant-service.js';
import type { EventRepository, EventRow } from '../../store/events/event-repository.js';

export class EventIngestService {
  constructor(
    private readonly events: EventRepository,
    private readonly limiter: RateLimiter,
    private readonly now: () => number,
    private readonly onAccepted: () => void,
  ) {}

  async ingest(tenant: Tenant, input: IngestEventIn): Promise<IngestEventOut> {
    if (input.org_id !== tenant.org_id) throw new AppError('org_id_mismatch');
    if (await this.events.findByEventId(tenant.id, input.event_id)) return { status: 'duplicate' };
    const at = isoNow(this.now);
    const row: EventRow = {
      id: newId('bev'),
      tenant_id: tenant.id,
      event_id: input.event_id,
      event_name: input.event_name,
      payload: JSON.stringify(input),
      status: 'pending',
      next_attempt_at: at,
      lease_until: null,
      result: null,
      created_at: at,
      processed_at: null,
    };
    try {
      await insertCountedEvent(this.events.db, row, async (tx) => {
        const decision = await this.limiter.consume(tenant.id, limitRules(tenant.limits).events, { executor: tx });
        if (!decision.allowed) throw new AppError('rate_limited', { headers: rateLimitHeaders(decision) });
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (await this.events.findByEventId(tenant.id, input.event_id).catch(() => undefined)) return { status: 'duplicate' };
      throw error;
    }
    this.onAccepted();
    return { status: 'accepted' };
  }
}
