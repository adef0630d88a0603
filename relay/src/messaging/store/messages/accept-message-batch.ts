// Accepts a batch of new messages in one transaction (the group commit behind POST /api/messages/send):
// insert them all — a repeat of a stored business-event id is skipped by the unique index — count
// each tenant's new messages against its daily quota and sustained limit, and delete again the ones
// those refuse. So a refused message leaves no trace and uses no quota, and an accepted one is
// committed together with its count or not at all. Per tenant the answers are those that sending
// the batch's messages one at a time, in order, would give.
import type { Kysely } from 'kysely';
import type { TenantLimitsOut } from '@ledgerwire/shared';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { rateLimitHeaders, type RateLimitDecision, type RateLimiter, type RateLimitGrant } from '../../../limits/rate-limiter.js';
import { limitRules } from '../tenants/tenant-limits.js';
import type { CheckedAttachment } from './checked-attachment.js';
import type { MessageBatchInsert } from './message-batch-insert.js';
import type { Executor, MessageRow } from './message-repository.js';

export type PendingMessage = Readonly<{ row: MessageRow; limits: TenantLimitsOut; attachments?: readonly CheckedAttachment[] }>;

export type AcceptOutcome =
  | Readonly<{ kind: 'stored' }>
  /** The tenant already has a message with this business-event id (look it up and replay it). */
  | Readonly<{ kind: 'duplicate' }>
  | Readonly<{ kind: 'refused'; error: AppError }>;

export type AcceptMessageBatchDeps = Readonly<{
  db: Kysely<Database>;
  insert: MessageBatchInsert;
  limiter: RateLimiter;
}>;

const STORED: AcceptOutcome = Object.freeze({ kind: 'stored' });
const DUPLICATE: AcceptOutcome = Object.freeze({ kind: 'duplicate' });

/**
 * One outcome per message, in the batch's order. The batch must hold each (tenant, business-event
 * id) once; sorted by it, concurrent batches (other relay processes on PostgreSQL) take their row
 * locks in the same order and cannot deadlock. Throws when the transaction fails: nothing is kept.
 */
export async function acceptMessageBatch(deps: AcceptMessageBatchDeps, batch: readonly PendingMessage[]): Promise<AcceptOutcome[]> {
  const grants: RateLimitGrant[] = [];
  try {
    return await deps.db.transaction().execute(async (tx) => {
      const inserted = await deps.insert.insertNew(
        batch.map((pending) => pending.row),
        tx,
      );
      const outcomes = batch.map((pending) => (inserted.has(pending.row.id) ? STORED : DUPLICATE));
      const refusedIds: string[] = [];
      for (const [tenantId, group] of newMessagesByTenant(batch, inserted)) {
        const { accepted, refusal } = await countAgainstLimits(deps.limiter, tenantId, group.limits, group.indexes.length, tx, grants);
        for (const index of group.indexes.slice(accepted)) {
          outcomes[index] = { kind: 'refused', error: new AppError(refusal.code, { headers: rateLimitHeaders(refusal.decision) }) };
          refusedIds.push(batch[index]!.row.id);
        }
      }
      if (refusedIds.length > 0) await tx.deleteFrom('msg_messages').where('id', 'in', refusedIds).execute();
      // Attachments of the messages kept, in the same transaction: a message is never stored without them.
      for (const [index, pending] of batch.entries()) {
        if (outcomes[index] === STORED && pending.attachments && pending.attachments.length > 0) await insertAttachments(tx, pending.row.id, pending.attachments);
      }
      const tagRows = batch.flatMap((pending, index) => (outcomes[index] === STORED ? tagRowsOf(pending.row) : []));
      if (tagRows.length > 0) await tx.insertInto('msg_message_tags').values(tagRows).execute();
      return outcomes;
    });
  } catch (error) {
    deps.limiter.undoLocal(grants);
    throw error;
  }
}

/** One row per attachment; one statement per attachment keeps each bound parameter to one file's text. */
async function insertAttachments(tx: Executor, messageId: string, attachments: readonly CheckedAttachment[]): Promise<void> {
  for (const [position, attachment] of attachments.entries()) {
    await tx
      .insertInto('msg_attachments')
      .values({ message_id: messageId, position, filename: attachment.filename, content_type: attachment.content_type, content_id: attachment.content_id, size: attachment.size, content: attachment.content })
      .execute();
  }
}

/** The message's tags as rows of the index GET /api/messages?tag= reads. */
function tagRowsOf(row: MessageRow): { message_id: string; tenant_id: string; tag: string; created_at: string }[] {
  if (row.tags === null) return [];
  return (JSON.parse(row.tags) as string[]).map((tag) => ({ message_id: row.id, tenant_id: row.tenant_id, tag, created_at: row.created_at }));
}

type TenantGroup = { limits: TenantLimitsOut; indexes: number[] };

/** The batch indexes of the newly inserted messages, per tenant, in batch order. */
function newMessagesByTenant(batch: readonly PendingMessage[], inserted: ReadonlySet<string>): Map<string, TenantGroup> {
  const groups = new Map<string, TenantGroup>();
  batch.forEach((pending, index) => {
    if (!inserted.has(pending.row.id)) return;
    const group = groups.get(pending.row.tenant_id);
    if (group) group.indexes.push(index);
    else groups.set(pending.row.tenant_id, { limits: pending.limits, indexes: [index] });
  });
  return groups;
}

type Refusal = Readonly<{ code: 'daily_quota_exceeded' | 'sustained_limit_exceeded'; decision: RateLimitDecision }>;

/**
 * Counts `wanted` new messages of a tenant: the first `accepted` of them fit both limits. Daily
 * first, as a single send does; the daily units the sustained limit then leaves unused go back.
 * Grants are recorded in `grants` so that a failed transaction can undo in-memory counts.
 */
async function countAgainstLimits(
  limiter: RateLimiter,
  tenantId: string,
  limits: TenantLimitsOut,
  wanted: number,
  executor: Executor,
  grants: RateLimitGrant[],
): Promise<{ accepted: number; refusal: Refusal }> {
  const rules = limitRules(limits);
  // The common case: room for all of them in both, counted in one statement.
  const together = await limiter.consumeTogether(tenantId, [rules.daily, rules.sustained], wanted, { executor });
  if (together) {
    grants.push(...together);
    return { accepted: wanted, refusal: { code: 'daily_quota_exceeded', decision: together[0].refusal } };
  }
  const dailyIndex = grants.push(await limiter.consumeUpTo(tenantId, rules.daily, wanted, { executor })) - 1;
  const daily = grants[dailyIndex]!;
  const sustained = await limiter.consumeUpTo(tenantId, rules.sustained, daily.granted, { executor });
  grants.push(sustained);
  if (sustained.granted < daily.granted) grants[dailyIndex] = await limiter.giveBack(daily, daily.granted - sustained.granted, { executor });
  // One at a time, the message after the last accepted one meets the daily quota first: refused by
  // it when the day has no room left, otherwise by the sustained limit.
  const refusal: Refusal =
    sustained.granted === daily.granted
      ? { code: 'daily_quota_exceeded', decision: daily.refusal }
      : { code: 'sustained_limit_exceeded', decision: sustained.refusal };
  return { accepted: sustained.granted, refusal };
}
