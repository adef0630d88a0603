// How many active templates the tenant has on this channel besides test_email (the onboarding
// test): a send falls back to test_email only while it is the only active one.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { TEST_EMAIL_TEMPLATE } from './template-rows.js';

export async function countActiveTemplatesBesidesTestEmail(db: Kysely<Database>, tenantId: string, channel: string): Promise<number> {
  const row = await db
    .selectFrom('msg_templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('channel', '=', channel)
    .where('is_active', '=', 1)
    .where('event_key', '!=', TEST_EMAIL_TEMPLATE)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
