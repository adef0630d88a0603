// Applications (the callers of the bridge API) and their API keys. A key's secret is shown once, in
// the answer that creates it; the relay keeps only its SHA-256 and compares in constant time.
import { hash } from 'node:crypto';
import type { ApiKeyIn, ApiKeyRecordOut, ApplicationRecordOut, BridgeCapability } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { generateSecret, secretMatchesHash, sha256Hex } from '../../../security/secret-hash.js';
import type { BridgeApiKeysTable } from '../../../db/bridge-tables.js';
import { ShortLivedCache } from '../../../foundation/short-lived-cache.js';
import { parseJson, prefixedId, systemClock, type Clock } from '../../store/bridge-ids.js';
import { findApiKeyById } from '../../store/applications/find-api-key-by-id.js';
import { findApplicationById } from '../../store/applications/find-application-by-id.js';
import { insertApiKey } from '../../store/applications/insert-api-key.js';
import { insertApplication } from '../../store/applications/insert-application.js';
import { listApiKeysOfApplication } from '../../store/applications/list-api-keys-of-application.js';
import { listApplications } from '../../store/applications/list-applications.js';
import { revokeApiKey } from '../../store/applications/revoke-api-key.js';

/**
 * How long another relay process may keep accepting a key revoked elsewhere (a revocation made
 * through this process holds at once), as for the messaging API's keys.
 */
export const KEY_AUTH_CACHE_TTL_MS = 2_000;

export type AuthenticatedKey = Readonly<{
  keyId: string;
  applicationId: string;
  environment: 'test' | 'live';
  capabilities: readonly string[];
}>;

export type CreatedApiKey = ApiKeyRecordOut & { secret: string; credential: string };

function keyRecord(row: BridgeApiKeysTable): ApiKeyRecordOut {
  return {
    key_id: row.key_id,
    application_id: row.application_id,
    environment: row.environment === 'live' ? 'live' : 'test',
    capabilities: parseJson<string[]>(row.capabilities, []),
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

export class ApplicationService {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  /**
   * Verified credential (by the SHA-256 of `key_id:secret`, so no secret is held in clear) → its key,
   * frozen; every request of the TTL shares it. Cleared by every revocation here.
   */
  private readonly authCache: ShortLivedCache<AuthenticatedKey>;

  constructor(deps: { db: Kysely<Database>; clock?: Clock }) {
    this.db = deps.db;
    this.clock = deps.clock ?? systemClock;
    this.authCache = new ShortLivedCache(KEY_AUTH_CACHE_TTL_MS, () => this.clock().getTime());
  }

  async createApplication(input: { name: string }): Promise<ApplicationRecordOut> {
    const row = { id: prefixedId('app_'), name: input.name, created_at: this.clock().toISOString() };
    await insertApplication(this.db, row);
    return row;
  }

  listApplications(): Promise<ApplicationRecordOut[]> {
    return listApplications(this.db);
  }

  async getApplication(id: string): Promise<ApplicationRecordOut> {
    const row = await findApplicationById(this.db, id);
    if (!row) throw new AppError('application_not_found', { message: `No application ${id}` });
    return row;
  }

  async createKey(applicationId: string, input: ApiKeyIn): Promise<CreatedApiKey> {
    await this.getApplication(applicationId);
    const capabilities: BridgeCapability[] = [...new Set(input.capabilities)];
    const keyId = prefixedId(`lwk_${input.environment}_`, 8);
    const secret = generateSecret('lws_');
    const row: BridgeApiKeysTable = {
      key_id: keyId,
      application_id: applicationId,
      environment: input.environment,
      capabilities: JSON.stringify(capabilities),
      secret_hash: sha256Hex(secret),
      created_at: this.clock().toISOString(),
      revoked_at: null,
    };
    await insertApiKey(this.db, row);
    return { ...keyRecord(row), secret, credential: `${keyId}:${secret}` };
  }

  async listKeys(applicationId: string): Promise<ApiKeyRecordOut[]> {
    await this.getApplication(applicationId);
    const rows = await listApiKeysOfApplication(this.db, applicationId);
    return rows.map(keyRecord);
  }

  /** Revokes at once; revoking again keeps the first revocation time. */
  async revokeKey(keyId: string): Promise<ApiKeyRecordOut> {
    await revokeApiKey(this.db, keyId, this.clock().toISOString());
    this.authCache.clear();
    const row = await findApiKeyById(this.db, keyId);
    if (!row) throw new AppError('api_key_not_found', { message: `No API key ${keyId}` });
    return keyRecord(row);
  }

  /** The key behind a `key_id:secret` pair, or undefined when unknown, wrong or revoked. */
  async authenticate(keyId: string, secret: string): Promise<AuthenticatedKey | undefined> {
    // Only a credential that verified is cached: a wrong secret always reaches the comparison below.
    const digest = hash('sha256', `${keyId}:${secret}`, 'hex');
    const cached = this.authCache.get(digest);
    if (cached) return cached;
    const row = await findApiKeyById(this.db, keyId);
    // Hash and compare even for an unknown key id, so timing does not tell which ids exist.
    const matches = secretMatchesHash(secret, row?.secret_hash ?? sha256Hex(''));
    if (!row || !matches || row.revoked_at !== null) return undefined;
    const capabilities = Object.freeze(parseJson<string[]>(row.capabilities, []));
    const key: AuthenticatedKey = Object.freeze({
      keyId: row.key_id,
      applicationId: row.application_id,
      environment: row.environment === 'live' ? 'live' : 'test',
      capabilities,
    });
    this.authCache.set(digest, key);
    return key;
  }
}
