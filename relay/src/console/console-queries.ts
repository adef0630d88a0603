// SQL behind the console's read-only queries: plain Kysely reads over the messaging and bridge
// tables, written to run the same on SQLite and PostgreSQL.
import { sql, type Kysely } from 'kysely';
import type { ConsoleMessageSearchQuery, ConsoleMessageSummaryOut, ConsolePulledCountOut, DeliveryStatus } from '@ledgerwire/shared';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors/catalogue.js';
import { containsPattern } from './console-sql.js';

export class ConsoleQueries {
  constructor(private readonly db: Kysely<Database>) {}

  async assertTenantExists(tenantId: string): Promise<void> {
    const tenant = await this.db.selectFrom('msg_tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
    if (!tenant) throw new AppError('tenant_not_found');
  }

  async searchMessages(tenantId: string, query: ConsoleMessageSearchQuery): Promise<{ total: number; messages: ConsoleMessageSummaryOut[] }> {
    await this.assertTenantExists(tenantId);
    let base = this.db.selectFrom('msg_messages').where('tenant_id', '=', tenantId);
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
    return {
      total: Number(counted?.total ?? 0),
      messages: rows.map((row) => ({
        message_id: row.id,
        status: row.status as DeliveryStatus,
        channel: row.channel,
        to: row.to_address,
        subject: row.subject,
        event_key: row.event_key,
        transaction_id: row.transaction_id,
        provider: row.provider,
        attempts: row.attempts,
        metadata: row.metadata === null ? {} : (JSON.parse(row.metadata) as Record<string, string>),
        tags: row.tags === null ? [] : (JSON.parse(row.tags) as string[]),
        created_at: row.created_at,
        updated_at: row.updated_at,
      })),
    };
  }

  /** One row per company of the application (or of every application), zeros where nothing was pulled. */
  async pulledCounts(applicationId: string | undefined): Promise<ConsolePulledCountOut[]> {
    let companies = this.db.selectFrom('companies').select('id').orderBy('id');
    if (applicationId !== undefined) companies = companies.where('application_id', '=', applicationId);
    const ids = (await companies.execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    const vouchers = await this.db
      .selectFrom('pulled_vouchers')
      .select((eb) => [
        'company_id',
        'status',
        'deleted',
        eb.fn.countAll<string | number>().as('count'),
        eb.fn.max('updated_at').as('last_at'),
      ])
      .where('company_id', 'in', ids)
      .groupBy(['company_id', 'status', 'deleted'])
      .execute();
    const masters = await this.db
      .selectFrom('pulled_masters')
      .select((eb) => ['company_id', 'deleted', eb.fn.countAll<string | number>().as('count'), eb.fn.max('updated_at').as('last_at')])
      .where('company_id', 'in', ids)
      .groupBy(['company_id', 'deleted'])
      .execute();
    const counts = new Map<number, ConsolePulledCountOut>(
      ids.map((id) => [id, { company_id: id, vouchers_pending: 0, vouchers_acknowledged: 0, vouchers_deleted: 0, masters: 0, masters_deleted: 0, last_pulled_at: null }]),
    );
    const seen = (entry: ConsolePulledCountOut, at: string | null) => {
      if (at !== null && (entry.last_pulled_at === null || at > entry.last_pulled_at)) entry.last_pulled_at = at;
    };
    for (const row of vouchers) {
      const entry = counts.get(Number(row.company_id));
      if (!entry) continue;
      const n = Number(row.count);
      if (Number(row.deleted) === 1) entry.vouchers_deleted += n;
      else if (row.status === 'acknowledged') entry.vouchers_acknowledged += n;
      else entry.vouchers_pending += n;
      seen(entry, row.last_at);
    }
    for (const row of masters) {
      const entry = counts.get(Number(row.company_id));
      if (!entry) continue;
      if (Number(row.deleted) === 1) entry.masters_deleted += Number(row.count);
      else entry.masters += Number(row.count);
      seen(entry, row.last_at);
    }
    return [...counts.values()];
  }
}
