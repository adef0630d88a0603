// SQL for messaging tenants and their API keys.
import type { Kysely, Selectable } from 'kysely';
import type { Database, MsgApiKeysTable, MsgTenantsTable } from '../../db/schema.js';

export type TenantRow = Selectable<MsgTenantsTable>;
export type ApiKeyRow = Selectable<MsgApiKeysTable>;

export class TenantRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: TenantRow): Promise<void> {
    await this.db.insertInto('msg_tenants').values(row).execute();
  }

  find(id: string): Promise<TenantRow | undefined> {
    return this.db.selectFrom('msg_tenants').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByOrgId(orgId: number): Promise<TenantRow | undefined> {
    return this.db.selectFrom('msg_tenants').selectAll().where('org_id', '=', orgId).executeTakeFirst();
  }

  findMany(ids: readonly string[]): Promise<TenantRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('msg_tenants').selectAll().where('id', 'in', ids).execute();
  }

  list(): Promise<TenantRow[]> {
    return this.db.selectFrom('msg_tenants').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async update(id: string, changes: Partial<Omit<TenantRow, 'id' | 'created_at'>>): Promise<void> {
    await this.db.updateTable('msg_tenants').set(changes).where('id', '=', id).execute();
  }

  async insertApiKey(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('msg_api_keys').values(row).execute();
  }

  listApiKeys(tenantId: string): Promise<ApiKeyRow[]> {
    return this.db.selectFrom('msg_api_keys').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();
  }

  findApiKey(tenantId: string, prefix: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('msg_api_keys')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('prefix', '=', prefix)
      .executeTakeFirst();
  }

  async revokeApiKey(prefix: string, at: string): Promise<void> {
    await this.db.updateTable('msg_api_keys').set({ revoked_at: at }).where('prefix', '=', prefix).where('revoked_at', 'is', null).execute();
  }

  /** The live key with this prefix and its tenant, in one query (the hot path of every request). */
  findLiveKeyWithTenant(prefix: string) {
    return this.db
      .selectFrom('msg_api_keys')
      .innerJoin('msg_tenants', 'msg_tenants.id', 'msg_api_keys.tenant_id')
      .selectAll('msg_tenants')
      .select('msg_api_keys.key_hash')
      .where('msg_api_keys.prefix', '=', prefix)
      .where('msg_api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
  }
}
