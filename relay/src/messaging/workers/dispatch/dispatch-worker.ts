// The dispatch worker's pass: lease due queued messages (tenants served in turn), try each one's
// tenant's providers in order (skipping unconfigured ones and open circuits), then record what
// happened to the whole claim, status webhooks included, in one transaction.
//   sent      → status sent, provider id kept, message.sent published
//   permanent → status failed with the provider's response, message.failed published
//   transient → next provider (failover); when all fail, retry later with backoff, and after
//               maxAttempts give up as failed.
// One commit per claim with one statement per outcome kind (not three statements per message), and
// the next claim made while the previous one is with the providers, are what let delivery keep up
// with acceptance (`npm run bench -- dispatch`). A crash between a provider's answer and that commit
// leaves the message leased; it is tried again when the lease runs out, as before.
import type { ProviderName } from '@ledgerwire/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { FastifyBaseLogger } from 'fastify';
import type { MessagingConfig } from '../../../config/load-config.js';
import { isoNow } from '../../../foundation/messaging-ids.js';
import type { MessageRepository, MessageRow, TimelineEntry } from '../../store/messages/message-repository.js';
import type { RetrySchedule, StatusMove } from '../../store/messages/message-status-batch.js';
import type { ByteBudget } from '../../services/byte-budget.js';
import type { OutgoingAttachment, OutgoingEmail } from '../../services/providers/email-provider.js';
import type { ProviderRegistry } from '../../services/providers/provider-registry.js';
import { suppressionKey, type SuppressionRepository, type SuppressionRow } from '../../store/suppressions/suppression-repository.js';
import type { TenantRepository } from '../../store/tenants/tenant-repository.js';
import type { TenantService } from '../../services/tenants/tenant-service.js';
import { retryDelayMs, type CircuitBreakers } from './circuit-breaker.js';
import { simulatedEvents, TEST_MODE_PROVIDERS } from './test-mode-simulation.js';
import type { StatusChange, StatusNotifier } from '../../services/messages/status-notifier.js';

/** Messages per claim: the providers are called concurrently, the outcomes committed together. */
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
  suppressions: SuppressionRepository;
  /** Memory for attachments being sent: a message's bytes are loaded only once they fit. */
  attachmentMemory: ByteBudget;
}>;

/** What became of one message in a pass, with the timeline entries its attempts left. */
type Outcome = Readonly<{
  message: MessageRow;
  timeline: TimelineEntry[];
  result:
    | { kind: 'sent'; provider: ProviderName; providerMessageId: string | null }
    | {
        kind: 'failed';
        provider: ProviderName | null;
        error: string;
        response: Record<string, unknown> | undefined;
        attempts: number;
        /** A stable reason for failures the relay decides itself (`suppressed`). */
        reason?: string;
      }
    | { kind: 'retry'; attempts: number; nextAttemptAt: string; error: string };
}>;

export class DispatchWorker {
  private lastTenant: string | null = null;

  constructor(private readonly deps: DispatchDeps) {}

  /**
   * One pass: up to `claimsPerPass` claims of BATCH messages, each made while the previous claim's
   * messages are still with the providers (at most two claims out at once), so the database work of
   * one overlaps the provider calls of the other. True when the last claim was full (there may be more).
   */
  async runPass(): Promise<boolean> {
    const dispatching: Promise<void>[] = [];
    let full = true;
    let claimFailure: { error: unknown } | undefined;
    for (let claim = 0; claim < this.deps.config.dispatchClaimsPerPass && full; claim++) {
      // The claim before last must be recorded first: two claims out at once, never more.
      if (dispatching.length >= 2) await dispatching[dispatching.length - 2]!.catch(() => undefined);
      let rows: MessageRow[];
      try {
        rows = await this.claim();
      } catch (error) {
        claimFailure = { error };
        break;
      }
      full = rows.length === BATCH;
      if (rows.length > 0) dispatching.push(this.dispatch(rows, dispatching.at(-1)));
    }
    // Every claim out is recorded (or has failed) before the pass ends, whatever else failed.
    const settled = await Promise.allSettled(dispatching);
    if (claimFailure) throw claimFailure.error;
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    return full;
  }

  /** Leases the next due messages, tenants served in turn from where the last claim stopped. */
  private async claim(): Promise<MessageRow[]> {
    const now = this.deps.now();
    const claimed = await this.deps.messages.claimDue({
      now: new Date(now).toISOString(),
      leaseUntil: new Date(now + LEASE_MS).toISOString(),
      limit: BATCH,
      startAfterTenant: this.lastTenant,
    });
    this.lastTenant = claimed.lastTenant;
    return claimed.rows;
  }

  /**
   * Sends one claim's messages concurrently, then records their outcomes together, after the claim
   * before it (`previous`) is recorded: claims commit in the order they were made, so a newcomer
   * served in the first claim is recorded before the backlog of the later ones.
   */
  private async dispatch(rows: readonly MessageRow[], previous: Promise<void> | undefined): Promise<void> {
    const tenants = await this.deps.tenantRows.findMany([...new Set(rows.map((m) => m.tenant_id))]);
    const orders = new Map(tenants.map((row) => [row.id, this.deps.tenants.toTenant(row).provider_order]));
    const suppressed = await this.deps.suppressions.findAmong(rows.map((m) => ({ tenantId: m.tenant_id, email: m.to_address })));
    const settled = await Promise.all(
      rows.map((message) => {
        const suppression = suppressed.get(suppressionKey(message.tenant_id, message.to_address));
        if (suppression) return this.refuseSuppressed(message, suppression);
        // A test key's message never reaches a real provider, whatever the tenant's order.
        const order = message.test_mode === 1 ? TEST_MODE_PROVIDERS : (orders.get(message.tenant_id) ?? [...this.deps.config.defaultProviders]);
        return this.deliver(message, order).catch((error: unknown) => {
          // Left leased: tried again when the lease runs out.
          this.deps.log.error({ err: error, message_id: message.id }, 'dispatching a message failed');
          return undefined;
        });
      }),
    );
    await previous?.catch(() => undefined); // its failure is the pass's to report, not this claim's
    await this.record(settled.filter((outcome): outcome is Outcome => outcome !== undefined));
  }

  /** A send to a suppressed address never reaches a provider: it ends failed, reason `suppressed`. */
  private refuseSuppressed(message: MessageRow, suppression: SuppressionRow): Outcome {
    const error =
      `suppressed: ${suppression.email} is on this tenant's suppression list (${suppression.reason} since ${suppression.created_at}); ` +
      `no provider was called. Remove it with DELETE /api/suppressions/${suppression.email} only if the recipient asked to receive mail again.`;
    const timeline: TimelineEntry[] = [
      { type: 'failed', status: 'failed', provider: null, detail: { reason: 'suppressed', suppression_reason: suppression.reason, error }, occurredAt: isoNow(this.deps.now) },
    ];
    return { message, timeline, result: { kind: 'failed', provider: null, error, response: undefined, attempts: message.attempts, reason: 'suppressed' } };
  }

  /**
   * Sends one message, its attachments loaded (within the memory budget) only for the time of the
   * provider calls: a claim of many large messages never holds all their bytes at once.
   */
  private async deliver(message: MessageRow, order: readonly ProviderName[]): Promise<Outcome> {
    if (Number(message.attachment_bytes) === 0) return this.deliverWith(message, order, undefined);
    // The stored base64 text is 4/3 of the decoded size; each provider builds its request from it.
    const release = await this.deps.attachmentMemory.take(Math.ceil((Number(message.attachment_bytes) * 4) / 3) * 2);
    try {
      const rows = await this.deps.messages.attachmentsToSend(message.id);
      const attachments: OutgoingAttachment[] = [];
      for (const row of rows) {
        if (row.content === null) {
          const error = `attachment ${row.filename} is no longer stored: the message was already final`;
          return { message, timeline: [], result: { kind: 'failed', provider: null, error, response: undefined, attempts: message.attempts } };
        }
        attachments.push({ filename: row.filename, contentType: row.content_type, contentId: row.content_id, content: row.content });
      }
      return await this.deliverWith(message, order, attachments);
    } finally {
      release();
    }
  }

  private async deliverWith(message: MessageRow, order: readonly ProviderName[], attachments: readonly OutgoingAttachment[] | undefined): Promise<Outcome> {
    const email: OutgoingEmail = {
      ...(attachments ? { attachments } : {}),
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

  /**
   * A claim's status moves, timeline entries and status webhooks in one transaction, one statement
   * per outcome kind. The webhooks of the messages whose status moved go in the same transaction
   * (the webhook outbox), so a change is announced exactly when it commits.
   */
  private async record(outcomes: readonly Outcome[]): Promise<void> {
    const at = isoNow(this.deps.now);
    const { messages, notifier } = this.deps;
    const sent: StatusMove[] = [];
    const failed: StatusMove[] = [];
    const retries: RetrySchedule[] = [];
    for (const { message, result } of outcomes) {
      if (result.kind === 'retry') retries.push({ id: message.id, attempts: result.attempts, nextAttemptAt: result.nextAttemptAt, error: result.error });
      else if (result.kind === 'sent') {
        sent.push({
          id: message.id,
          set: {
            provider: result.provider,
            provider_message_id: result.providerMessageId,
            attempts: message.attempts + 1,
            lease_until: null,
            next_attempt_at: null,
            error: null,
          },
        });
      } else {
        failed.push({
          id: message.id,
          set: {
            ...(result.provider ? { provider: result.provider } : {}),
            attempts: result.attempts,
            lease_until: null,
            next_attempt_at: null,
            error: result.response ? `${result.error} ${JSON.stringify(result.response)}` : result.error,
          },
        });
      }
    }
    const queuedWebhooks = await messages.inTransaction(async (tx) => {
      const movedIds = new Set<string>();
      if (sent.length > 0) for (const id of await messages.advanceStatuses('sent', at, sent, tx)) movedIds.add(id);
      if (failed.length > 0) for (const id of await messages.advanceStatuses('failed', at, failed, tx)) movedIds.add(id);
      if (retries.length > 0) await messages.scheduleRetries(retries, at, tx);
      // Sent or failed is final: no provider will be given these attachments again, so their bytes go
      // now, in the commit that makes the message final (name, type and size stay).
      const final = outcomes.filter((o) => o.result.kind !== 'retry' && Number(o.message.attachment_bytes) > 0).map((o) => o.message.id);
      await messages.dropAttachmentContent(final, tx);
      await messages.addTimelineEntries(
        outcomes.flatMap(({ message, timeline }) => timeline.map((entry) => ({ messageId: message.id, entry }))),
        at,
        tx,
      );
      const changes = outcomes.filter((outcome) => movedIds.has(outcome.message.id)).flatMap((outcome) => this.statusChange(outcome) ?? []);
      changes.push(...(await this.simulateTestEvents(outcomes.filter((o) => o.result.kind === 'sent' && o.message.test_mode === 1 && movedIds.has(o.message.id)), at, tx)));
      return notifier.queueInTransaction(tx, changes);
    });
    if (queuedWebhooks > 0) notifier.announceQueued();
  }

  /**
   * Test mode: the provider events a sent test message's recipient stands for (test-mode-simulation.ts),
   * applied as a provider's would be — timeline, forward-only status, suppression — in the same commit.
   */
  private async simulateTestEvents(sent: readonly Outcome[], at: string, tx: Transaction<Database>): Promise<StatusChange[]> {
    const changes: StatusChange[] = [];
    for (const { message } of sent) {
      for (const simulated of simulatedEvents(message.to_address)) {
        const detail = { event: simulated.event, simulated: true, email: message.to_address };
        await this.deps.messages.addTimeline(message.id, { type: 'provider_event', status: simulated.status, provider: 'simulator', detail, occurredAt: at }, at, tx);
        if (simulated.suppression) {
          await this.deps.suppressions.add({ tenant_id: message.tenant_id, email: message.to_address, reason: simulated.suppression, message_id: message.id, created_at: at }, tx);
        }
        if (simulated.status && (await this.deps.messages.advanceStatus(message.id, simulated.status, at, simulated.error ? { error: simulated.error } : {}, tx))) {
          changes.push({
            tenantId: message.tenant_id,
            messageId: message.id,
            status: simulated.status,
            transactionId: message.transaction_id,
            provider: 'simulator',
            occurredAt: at,
            detail,
            metadata: message.metadata,
            tags: message.tags,
          });
        }
      }
    }
    return changes;
  }

  private statusChange({ message, result }: Outcome): StatusChange | undefined {
    if (result.kind === 'retry') return undefined;
    return {
      tenantId: message.tenant_id,
      messageId: message.id,
      status: result.kind,
      transactionId: message.transaction_id,
      provider: result.provider,
      occurredAt: isoNow(this.deps.now),
      metadata: message.metadata,
      tags: message.tags,
      ...(result.kind === 'failed' ? { detail: { error: result.error, ...(result.reason ? { reason: result.reason } : {}) } } : {}),
    };
  }
}
