// One page of GET /api/messages: a tenant's messages oldest first, filtered by status, tag,
// recipient and creation time, after a keyset position on (created_at, id) — so a page never
// repeats or skips a message however many arrive meanwhile. Fetches `limit` rows; the caller asks
// for one more than a page to know whether another page follows.
import type { MessageListQuery } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type MessagePagePosition = Readonly<{ createdAt: string; id: string }>;
export type MessageListFilters = Pick<MessageListQuery, 'tag' | 'status' | 'to' | 'since'>;

export async function listMessagesPage(db: Kysely<Database>, tenantId: string, query: MessageListFilters, after: MessagePagePosition | undefined, limit: number) {
  let select = db.selectFrom('msg_messages as m').where('m.tenant_id', '=', tenantId);
  if (query.tag !== undefined) {
    const tag = query.tag;
    select = select.where((eb) =>
      eb.exists(eb.selectFrom('msg_message_tags as t').select('t.message_id').whereRef('t.message_id', '=', 'm.id').where('t.tenant_id', '=', tenantId).where('t.tag', '=', tag)),
    );
  }
  if (query.status !== undefined) select = select.where('m.status', '=', query.status);
  if (query.to !== undefined) select = select.where((eb) => eb(eb.fn('lower', ['m.to_address']), '=', query.to!.toLowerCase()));
  if (query.since !== undefined) select = select.where('m.created_at', '>=', new Date(query.since).toISOString());
  if (after) select = select.where((eb) => eb.or([eb('m.created_at', '>', after.createdAt), eb.and([eb('m.created_at', '=', after.createdAt), eb('m.id', '>', after.id)])]));
  return select
    .select(['m.id', 'm.status', 'm.to_address', 'm.subject', 'm.event_key', 'm.transaction_id', 'm.action', 'm.provider', 'm.error', 'm.metadata', 'm.tags', 'm.created_at', 'm.updated_at'])
    .orderBy('m.created_at')
    .orderBy('m.id')
    .limit(limit)
    .execute();
}
