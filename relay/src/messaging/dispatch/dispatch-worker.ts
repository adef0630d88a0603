// The dispatch worker's pass: lease due queued messages, try the tenant's providers in order
// (skipping unconfigured ones and open circuits), and record every attempt on the timeline.
//   sent      → status sent, provider id kept, message.sent published
//   permanent → status failed with the provider's response, message.failed published
//   transient → next provider (failover); when all fail, retry later with backoff, and after
//               maxAttempts give up as failed.
import type { ProviderName } from '@ledgerwire/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { MessagingConfig } from '../../config/load-config.js';
import { isoNow } from '../messaging-ids.js';
import type { MessageRepository, MessageRow } from '../messages/message-repository.js';
import type { OutgoingEmail } from '../providers/email-provider.js';
import type { ProviderRegistry } from '../providers/provider-registry.js';
import type { TenantRepository } from '../tenants/tenant-repository.js';
import type { TenantService } from '../tenants/tenant-service.js';
import { retryDelayMs, type CircuitBreakers } from './circuit-breaker.js';
import type { StatusNotifier } from './status-notifier.js';

const BATCH = 20;
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

export class DispatchWorker {
  constructor(private readonly deps: DispatchDeps) {}

  /** One pass; true when a full batch was claimed (there may be more). */
  async runPass(): Promise<boolean> {
    const now = this.deps.now();
    const claimed = await this.deps.messages.claimDue(new Date(now).toISOString(), new Date(now + LEASE_MS).toISOString(), BATCH);
    if (claimed.length === 0) return false;
    const tenants = await this.deps.tenantRows.findMany([...new Set(claimed.map((m) => m.tenant_id))]);
    const orders = new Map(tenants.map((row) => [row.id, this.deps.tenants.toTenant(row).provider_order]));
    await Promise.all(
      claimed.map((message) =>
        this.deliver(message, orders.get(message.tenant_id) ?? [...this.deps.config.defaultProviders]).catch((error: unknown) => {
          this.deps.log.error({ err: error, message_id: message.id }, 'dispatching a message failed');
        }),
      ),
    );
    return claimed.length === BATCH;
  }

  private async deliver(message: MessageRow, order: readonly ProviderName[]): Promise<void> {
    const email: OutgoingEmail = {
      messageId: message.id,
      tenantId: message.tenant_id,
      from: this.deps.config.mailFrom,
      to: message.to_address,
      subject: message.subject,
      html: message.html,
      text: message.text,
    };
    let tried = 0;
    let lastError = 'no provider available';
    let retryAfterMs = 0;
    for (const name of order) {
      const provider = this.deps.providers.get(name);
      if (!provider || this.deps.breakers.isOpen(name)) {
        lastError = provider ? `${name}: circuit open after repeated failures` : `${name}: not configured on this relay`;
        await this.timeline(message.id, 'provider_skipped', { provider: name, detail: { reason: lastError } });
        continue;
      }
      tried += 1;
      const outcome = await provider.send(email);
      if (outcome.kind === 'sent') {
        this.deps.breakers.success(name);
        await this.markSent(message, name, outcome.providerMessageId, outcome.response);
        return;
      }
      if (outcome.kind === 'permanent') {
        this.deps.breakers.success(name);
        await this.markFailed(message, name, outcome.error, outcome.response, message.attempts + 1);
        return;
      }
      this.deps.breakers.failure(name);
      lastError = outcome.error;
      retryAfterMs = Math.max(retryAfterMs, outcome.retryAfterMs ?? 0);
      await this.timeline(message.id, 'attempt_failed', { provider: name, detail: { error: outcome.error, response: outcome.response ?? null } });
    }
    // Only attempts that reached a provider count; a pass with every circuit open just waits.
    const attempts = message.attempts + (tried > 0 ? 1 : 0);
    if (attempts >= this.deps.config.maxAttempts) {
      await this.markFailed(message, null, `gave up after ${attempts} attempts: ${lastError}`, undefined, attempts);
      return;
    }
    const reopens = this.deps.breakers.reopensAt(order) ?? 0;
    const next = Math.max(this.deps.now() + retryDelayMs(Math.max(1, attempts)), this.deps.now() + retryAfterMs, tried === 0 ? reopens : 0);
    const nextAt = new Date(next).toISOString();
    await this.deps.messages.scheduleRetry(message.id, attempts, nextAt, lastError, isoNow(this.deps.now));
    await this.timeline(message.id, 'retry_scheduled', { detail: { attempts, next_attempt_at: nextAt, error: lastError } });
  }

  private async markSent(message: MessageRow, provider: ProviderName, providerMessageId: string, response?: Record<string, unknown>) {
    const at = isoNow(this.deps.now);
    const moved = await this.deps.messages.advanceStatus(message.id, 'sent', at, {
      provider,
      provider_message_id: providerMessageId,
      attempts: message.attempts + 1,
      lease_until: null,
      next_attempt_at: null,
      error: null,
    });
    await this.timeline(message.id, 'sent', { status: 'sent', provider, detail: { provider_message_id: providerMessageId, response: response ?? null } });
    if (moved) await this.publish(message, 'sent', provider, at);
  }

  private async markFailed(message: MessageRow, provider: ProviderName | null, error: string, response: Record<string, unknown> | undefined, attempts: number) {
    const at = isoNow(this.deps.now);
    const moved = await this.deps.messages.advanceStatus(message.id, 'failed', at, {
      ...(provider ? { provider } : {}),
      attempts,
      lease_until: null,
      next_attempt_at: null,
      error: response ? `${error} ${JSON.stringify(response)}` : error,
    });
    await this.timeline(message.id, 'failed', { status: 'failed', provider, detail: { error, response: response ?? null } });
    if (moved) await this.publish(message, 'failed', provider, at, { error });
  }

  private timeline(messageId: string, type: string, entry: { status?: 'sent' | 'failed'; provider?: string | null; detail?: Record<string, unknown> }) {
    const at = isoNow(this.deps.now);
    return this.deps.messages.addTimeline(messageId, { type, status: entry.status ?? null, provider: entry.provider ?? null, detail: entry.detail ?? null, occurredAt: at }, at);
  }

  private publish(message: MessageRow, status: 'sent' | 'failed', provider: string | null, at: string, detail?: Record<string, unknown>) {
    return this.deps.notifier.notify({
      tenantId: message.tenant_id,
      messageId: message.id,
      status,
      transactionId: message.transaction_id,
      provider,
      occurredAt: at,
      ...(detail ? { detail } : {}),
    });
  }
}
