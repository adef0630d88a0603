// GET /api/messages: a tenant's messages oldest first, filtered by status, tag, recipient and
// creation time, paged by a keyset cursor on (created_at, id) — so a page never repeats or skips a
// message however many arrive meanwhile, and an integrator can reconcile from `since` onwards. The
// query is store/messages/list-messages-page.ts; this service owns the cursor and the wire shape.
import type { DeliveryStatus, MessageListOut, MessageListQuery } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { listMessagesPage } from '../../store/messages/list-messages-page.js';

type Cursor = Readonly<{ createdAt: string; id: string }>;

export class MessageListService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(tenantId: string, query: MessageListQuery): Promise<MessageListOut> {
    const after = query.cursor === undefined ? undefined : readCursor(query.cursor);
    const rows = await listMessagesPage(this.db, tenantId, query, after, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      messages: page.map((row) => ({
        message_id: row.id,
        status: row.status as DeliveryStatus,
        to: row.to_address,
        subject: row.subject,
        event_key: row.event_key,
        transaction_id: row.transaction_id,
        action: row.action,
        provider: row.provider,
        error: row.status === 'failed' || row.status === 'bounced' ? row.error : null,
        metadata: row.metadata === null ? {} : (JSON.parse(row.metadata) as Record<string, string>),
        tags: row.tags === null ? [] : (JSON.parse(row.tags) as string[]),
        created_at: row.created_at,
        updated_at: row.updated_at,
      })),
      next_cursor: rows.length > query.limit && last ? writeCursor({ createdAt: last.created_at, id: last.id }) : null,
    };
  }
}

function writeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

function readCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { createdAt: value[0], id: value[1] };
  } catch {
    // fall through to the refusal
  }
  throw new AppError('validation_failed', { details: [{ field: 'cursor', message: 'The cursor field is not a next_cursor this API gave: start again without it.' }] });
}
