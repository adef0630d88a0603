// The dispatch worker's pass: lease due queued messages (tenants served in turn), try each one's
// tenant's providers in order (skipping unconfigured ones and open circuits), then record what
// happened to the whole pass in one transaction, and publish the status webhooks after it commits.
//   sent      → status sent, provider id kept, message.sent published
//   permanent → status failed with the provider's response, message.failed published
//   transient → next provider (failover); when all fail, retry later with backoff, and after
//               maxAttempts give up as failed.
// One commit per pass rather than three per message is what lets delivery keep up with acceptance
// (`npm run bench -- dispatch`). A crash between a provider's answer and that commit leaves the
// message leased; it is tried again when the lease runs out, as before.
import type { ProviderName } from '@ledgerwire/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { MessagingConfig } from '../../config/load-config.js';
import { isoNow } from '../messaging-ids.js';
import type { MessageRepository, MessageRow, TimelineEntry } from '../messages/message-repository.js';
import type { OutgoingEmail } from '../providers/email-provider.js';
import type { ProviderRegistry } from '../providers/provider-registry.js';
import type { TenantRepository } from '../tenants/tenant-repository.js';
import type { TenantService } from '../tenants/tenant-service.js';
import { retryDelayMs, type CircuitBreakers } from './circuit-breaker.js';
import type { StatusNotifier } from './status-notifier.js';

/** Messages per pass: the providers are called concurrently, the outcomes committed together. */
const BATCH = 200;
const LEASE_MS = 5 * 60_000;

export type DispatchDeps = Readonly<{
  messages: MessageRepository;
  tenantRows: TenantRepository;
  tenants: TenantService;
  providers: ProviderRegistry;
  breakers: CircuitBreakers;
  notifier: StatusNotifier;
  config: MessagingConfig;
  now: () => number;
  log: FastifyBaseLogger;
}>;

/** What became of one message in a pass, with the timeline entries its attempts left. */
type Outcome = Readonly<{
  message: MessageRow;
  timeline: TimelineEntry[];
  result:
    | { kind: 'sent'; provider: ProviderName; providerMessageId: string | null }
    | { kind: 'failed'; provider: ProviderName | null; error: string; response: Record<string, unknown> | undefined; attempts: number }
    | { kind: 'retry'; attempts: number; nextAttemptAt: string; error: string };
}>;

export class DispatchWorker {
  private lastTenant: string | null = null;

  constructor(private readonly deps: DispatchDeps) {}

  /** One pass; true when a full batch was claimed (there may be more). */
  async runPass(): Promise<boolean> {
    const now = this.deps.now();
    const claimed = await this.deps.messages.claimDue({
      now: new Date(now).toISOString(),
      leaseUntil: new Date(now + LEASE_MS).toISOString(),
      limit: BATCH,
      startAfterTenant: this.lastTenant,
    });
    this.lastTenant = claimed.lastTenant;
    if (claimed.rows.length === 0) return false;
    const tenants = await this.deps.tenantRows.findMany([...new Set(claimed.rows.map((m) => m.tenant_id))]);
    const orders = new Map(tenants.map((row) => [row.id, this.deps.tenants.toTenant(row).provider_order]));
    const settled = await Promise.all(
      claimed.rows.map((message) =>
        this.deliver(message, orders.get(message.tenant_id) ?? [...this.deps.config.defaultProviders]).catch((error: unknown) => {
          // Left leased: tried again when the lease runs out.
          this.deps.log.error({ err: error, message_id: message.id }, 'dispatching a message failed');
          return undefined;
        }),
      ),
    );
    const outcomes = settled.filter((outcome): outcome is Outcome => outcome !== undefined);
    const moved = await this.record(outcomes);
    for (const outcome of outcomes) if (moved.has(outcome.message.id)) await this.publish(outcome);
    return claimed.rows.length === BATCH;
  }

  private async deliver(message: MessageRow, order: readonly ProviderName[]): Promise<Outcome> {
    const email: OutgoingEmail = {
      messageId: message.id,
      tenantId: message.tenant_id,
      from: this.deps.config.mailFrom,
      to: message.to_address,
      subject: message.subject,
      html: message.html,
      text: message.text,
    };
    const timeline: TimelineEntry[] = [];
    const note = (type: string, entry: Omit<TimelineEntry, 'type' | 'occurredAt'>) => timeline.push({ type, occurredAt: isoNow(this.deps.now), ...entry });
    let tried = 0;
    let lastError = 'no provider available';
    let retryAfterMs = 0;
    for (const name of order) {
      const provider = this.deps.providers.get(name);
      if (!provider || this.deps.breakers.isOpen(name)) {
        lastError = provider ? `${name}: circuit open after repeated failures` : `${name}: not configured on this relay`;
        note('provider_skipped', { provider: name, detail: { reason: lastError } });
        continue;
      }
      tried += 1;
      const outcome = await provider.send(email);
      if (outcome.kind === 'sent') {
        this.deps.breakers.success(name);
        note('sent', { status: 'sent', provider: name, detail: { provider_message_id: outcome.providerMessageId, response: outcome.response ?? null } });
        return { message, timeline, result: { kind: 'sent', provider: name, providerMessageId: outcome.providerMessageId } };
      }
      if (outcome.kind === 'permanent') {
        this.deps.breakers.success(name);
        note('failed', { status: 'failed', provider: name, detail: { error: outcome.error, response: outcome.response ?? null } });
        return { message, timeline, result: { kind: 'failed', provider: name, error: outcome.error, response: outcome.response, attempts: message.attempts + 1 } };
      }
      this.deps.breakers.failure(name);
      lastError = outcome.error;
      retryAfterMs = Math.max(retryAfterMs, outcome.retryAfterMs ?? 0);
      note('attempt_failed', { provider: name, detail: { error: outcome.error, response: outcome.response ?? null } });
    }
    // Only attempts that reached a provider count; a pass with every circuit open just waits.
    const attempts = message.attempts + (tried > 0 ? 1 : 0);
    if (attempts >= this.deps.config.maxAttempts) {
      const error = `gave up after ${attempts} attempts: ${lastError}`;
      note('failed', { status: 'failed', provider: null, detail: { error, response: null } });
      return { message, timeline, result: { kind: 'failed', provider: null, error, response: undefined, attempts } };
    }
    const reopens = this.deps.breakers.reopensAt(order) ?? 0;
    const next = Math.max(this.deps.now() + retryDelayMs(Math.max(1, attempts)), this.deps.now() + retryAfterMs, tried === 0 ? reopens : 0);
    const nextAttemptAt = new Date(next).toISOString();
    note('retry_scheduled', { detail: { attempts, next_attempt_at: nextAttemptAt, error: lastError } });
    return { message, timeline, result: { kind: 'retry', attempts, nextAttemptAt, error: lastError } };
  }

  /** The pass's status moves and timeline entries in one transaction; returns the messages whose status moved. */
  private record(outcomes: readonly Outcome[]): Promise<Set<string>> {
    const at = isoNow(this.deps.now);
    const { messages } = this.deps;
    return messages.inTransaction(async (tx) => {
      const moved = new Set<string>();
      for (const { message, result } of outcomes) {
        if (result.kind === 'retry') {
          await messages.scheduleRetry(message.id, result.attempts, result.nextAttemptAt, result.error, at, tx);
          continue;
        }
        const changed =
          result.kind === 'sent'
            ? await messages.advanceStatus(
                message.id,
                'sent',
                at,
                { provider: result.provider, provider_message_id: result.providerMessageId, attempts: message.attempts + 1, lease_until: null, next_attempt_at: null, error: null },
                tx,
              )
            : await messages.advanceStatus(
                message.id,
                'failed',
                at,
                {
                  ...(result.provider ? { provider: result.provider } : {}),
                  attempts: result.attempts,
                  lease_until: null,
                  next_attempt_at: null,
                  error: result.response ? `${result.error} ${JSON.stringify(result.response)}` : result.error,
                },
                tx,
              );
        if (changed) moved.add(message.id);
      }
      await messages.addTimelineEntries(
        outcomes.flatMap(({ message, timeline }) => timeline.map((entry) => ({ messageId: message.id, entry }))),
        at,
        tx,
      );
      return moved;
    });
  }

  private publish({ message, result }: Outcome): Promise<void> {
    if (result.kind === 'retry') return Promise.resolve();
    return this.deps.notifier.notify({
      tenantId: message.tenant_id,
      messageId: message.id,
      status: result.kind,
      transactionId: message.transaction_id,
      provider: result.provider,
      occurredAt: isoNow(this.deps.now),
      ...(result.kind === 'failed' ? { detail: { error: result.error } } : {}),
    });
  }
}
