// Messaging tenants and their API keys; each method runs one operation of store/tenants/.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { findApiKey } from './find-api-key.js';
import { findLiveKeyWithTenant } from './find-live-key-with-tenant.js';
import { findTenantByOrgId } from './find-tenant-by-org-id.js';
import { findTenant } from './find-tenant.js';
import { findTenants } from './find-tenants.js';
import { insertApiKey } from './insert-api-key.js';
import { insertTenant } from './insert-tenant.js';
import { listApiKeys } from './list-api-keys.js';
import { listTenants } from './list-tenants.js';
import { revokeApiKey } from './revoke-api-key.js';
import type { ApiKeyRow, TenantRow } from './tenant-rows.js';
import { updateTenant } from './update-tenant.js';

export type { ApiKeyRow, TenantRow } from './tenant-rows.js';

export class TenantRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: TenantRow): Promise<void> {
    return insertTenant(this.db, row);
  }

  find(id: string): Promise<TenantRow | undefined> {
    return findTenant(this.db, id);
  }

  findByOrgId(orgId: number): Promise<TenantRow | undefined> {
    return findTenantByOrgId(this.db, orgId);
  }

  findMany(ids: readonly string[]): Promise<TenantRow[]> {
    return findTenants(this.db, ids);
  }

  list(): Promise<TenantRow[]> {
    return listTenants(this.db);
  }

  update(id: string, changes: Partial<Omit<TenantRow, 'id' | 'created_at'>>): Promise<void> {
    return updateTenant(this.db, id, changes);
  }

  insertApiKey(row: ApiKeyRow): Promise<void> {
    return insertApiKey(this.db, row);
  }

  listApiKeys(tenantId: string): Promise<ApiKeyRow[]> {
    return listApiKeys(this.db, tenantId);
  }

  findApiKey(tenantId: string, prefix: string): Promise<ApiKeyRow | undefined> {
    return findApiKey(this.db, tenantId, prefix);
  }

  revokeApiKey(prefix: string, at: string): Promise<void> {
    return revokeApiKey(this.db, prefix, at);
  }

  /** The live key with this prefix and its tenant, in one query (the hot path of every request). */
  findLiveKeyWithTenant(prefix: string) {
    return findLiveKeyWithTenant(this.db, prefix);
  }
}
