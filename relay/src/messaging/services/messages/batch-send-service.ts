// POST /api/messages/batch: up to 100 send bodies, each treated as a send of its own — validated,
// counted against the burst limit (the request itself is the first), the sustained limit and the daily
// quota, and idempotent on its own transaction_id — so one bad or refused item fails alone. The items
// go to the send service together, where the accept batcher writes them in one transaction.
import { SendMessageIn, type SendMessageOut } from '@ledgerwire/shared';
import { AppError, type ErrorDetail } from '../../../errors/catalogue.js';
import type { RateLimiter } from '../../../limits/rate-limiter.js';
import { limitRules } from '../../store/tenants/tenant-limits.js';
import type { Tenant } from '../tenants/tenant-service.js';
import type { SendService } from './queue-message.js';

export type BatchItemResult = Readonly<{ sent: SendMessageOut }> | Readonly<{ error: AppError }>;

export class BatchSendService {
  constructor(
    private readonly sender: SendService,
    private readonly limiter: Pick<RateLimiter, 'consume'>,
  ) {}

  /** One result per item, in order; never throws for an item's own failure. */
  async sendAll(tenant: Tenant, items: readonly unknown[]): Promise<BatchItemResult[]> {
    const burst = limitRules(tenant.limits).burst;
    // Burst first, in item order: the request counted one already; each further item counts one more.
    const admitted: (AppError | undefined)[] = [];
    for (let index = 0; index < items.length; index++) {
      if (index === 0) {
        admitted.push(undefined);
        continue;
      }
      const decision = await this.limiter.consume(tenant.id, burst);
      admitted.push(decision.allowed ? undefined : new AppError('burst_limit_exceeded'));
    }
    return Promise.all(items.map((item, index) => this.sendOne(tenant, item, admitted[index])));
  }

  private async sendOne(tenant: Tenant, item: unknown, refusal: AppError | undefined): Promise<BatchItemResult> {
    if (refusal) return { error: refusal };
    const parsed = SendMessageIn.safeParse(item);
    if (!parsed.success) return { error: new AppError('validation_failed', { details: parsed.error.issues.map(issueDetail) }) };
    try {
      return { sent: await this.sender.send(tenant, parsed.data) };
    } catch (error) {
      if (error instanceof AppError) return { error };
      return { error: new AppError('dispatch_failed', { cause: error }) };
    }
  }
}

/** A zod issue in the words the send route's validation uses: "The to field is required." */
function issueDetail(issue: { path: PropertyKey[]; message: string }): ErrorDetail {
  const field = issue.path.map(String).join('.');
  if (field === '') return { message: `The send body ${lowerFirst(issue.message)}` };
  return { field, message: `The ${field} field ${lowerFirst(issue.message)}` };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
