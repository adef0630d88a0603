// One page of a tenant's messages as support searches them (status, recipient, tag, metadata), newest
// first, with the total the filters match: a count and a page read over the same filtered base.
import { sql, type Kysely } from 'kysely';
import type { ConsoleMessageSearchQuery } from '@ledgerwire/shared';
import type { Database } from '../../db/schema.js';
import { containsPattern } from './console-sql.js';

export async function searchConsoleMessages(db: Kysely<Database>, tenantId: string, query: ConsoleMessageSearchQuery) {
  let base = db.selectFrom('msg_messages').where('tenant_id', '=', tenantId);
  if (query.status) base = base.where('status', '=', query.status);
  if (query.recipient) base = base.where(sql<boolean>`lower(to_address) like ${containsPattern(query.recipient)} escape '\\'`);
  if (query.tag) {
    const tag = query.tag;
    base = base.where((eb) =>
      eb.exists(eb.selectFrom('msg_message_tags').select('msg_message_tags.message_id').whereRef('msg_message_tags.message_id', '=', 'msg_messages.id').where('msg_message_tags.tag', '=', tag)),
    );
  }
  // Metadata is small JSON text (10 short strings at most): a contains search over it finds a value or a key.
  if (query.metadata) base = base.where(sql<boolean>`lower(metadata) like ${containsPattern(query.metadata)} escape '\\'`);
  const counted = await base.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirst();
  const rows = await base
    .select(['id', 'status', 'channel', 'to_address', 'subject', 'event_key', 'transaction_id', 'provider', 'attempts', 'metadata', 'tags', 'created_at', 'updated_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { total: Number(counted?.total ?? 0), rows };
}
