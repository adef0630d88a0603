// Messaging tenants: create, read, update (status, limits, provider order), API keys (issued once,
// stored as lookup prefix + SHA-256) and the authentication of a presented key.
import { hash, randomBytes } from 'node:crypto';
import type { TenantApiKeyOut, ProviderName, TenantCreateIn, TenantOut, TenantUpdateIn } from '@ledgerwire/shared';
import type { MessagingConfig } from '../../../config/load-config.js';
import { AppError } from '../../../errors/catalogue.js';
import { secretMatchesHash, sha256Hex } from '../../../security/secret-hash.js';
import { isUniqueViolation, isoNow, newId } from '../../../foundation/messaging-ids.js';
import { ShortLivedCache } from '../../../foundation/short-lived-cache.js';
import { effectiveLimits, mergeOverrides, type LimitOverrides } from '../../store/tenants/tenant-limits.js';
import type { ApiKeyRow, TenantRepository, TenantRow } from '../../store/tenants/tenant-repository.js';

/**
 * A tenant as the services use it: effective limits and provider order resolved; `testMode` when it
 * authenticated with one of its test keys (outbox only, simulated events).
 */
export type Tenant = Readonly<TenantOut> & { readonly testMode?: true };

const API_KEY_PREFIX = 'lwm_';
/** Test keys: `lwm_test_` + random; their lookup prefix is 8 random characters after it, as a live key's. */
const TEST_KEY_PREFIX = 'lwm_test_';
/** `lwm_` + 8 random characters: the part of the key stored in clear for lookup. */
const LOOKUP_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** How long another relay process may keep accepting a key revoked (or a tenant suspended) elsewhere. */
export const AUTH_CACHE_TTL_MS = 2_000;

export class TenantService {
  /**
   * Verified API key (by its SHA-256) → its tenant, frozen (every request of the TTL shares it);
   * cleared by every tenant or key change here.
   */
  private readonly authCache: ShortLivedCache<Tenant>;
  /**
   * Lookups under way, by the same digest: the requests that miss the cache together (every TTL,
   * under load) share one query instead of each making its own.
   */
  private readonly authLookups = new Map<string, Promise<Tenant | undefined>>();
  /** Bumped with every change here: a lookup begun before it must not refill the cache. */
  private authGeneration = 0;

  constructor(
    private readonly repository: TenantRepository,
    private readonly config: MessagingConfig,
    private readonly now: () => number,
  ) {
    this.authCache = new ShortLivedCache(AUTH_CACHE_TTL_MS, now);
  }

  toTenant(row: TenantRow): Tenant {
    const overrides = JSON.parse(row.limits) as LimitOverrides;
    const order = row.provider_order === null ? this.config.defaultProviders : (JSON.parse(row.provider_order) as ProviderName[]);
    return {
      id: row.id,
      name: row.name,
      org_id: Number(row.org_id),
      status: row.status === 'suspended' ? 'suspended' : 'active',
      limits: effectiveLimits(overrides),
      provider_order: [...order],
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  async create(input: TenantCreateIn): Promise<Tenant> {
    if (input.provider_order) this.assertConfigured(input.provider_order);
    if (await this.repository.findByOrgId(input.org_id)) throw new AppError('org_id_taken');
    const at = isoNow(this.now);
    const row: TenantRow = {
      id: newId('ten'),
      name: input.name,
      org_id: input.org_id,
      status: 'active',
      limits: JSON.stringify(mergeOverrides({}, input.limits)),
      provider_order: input.provider_order ? JSON.stringify(input.provider_order) : null,
      created_at: at,
      updated_at: at,
    };
    try {
      await this.repository.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('org_id_taken');
      throw error;
    }
    return this.toTenant(row);
  }

  async list(): Promise<Tenant[]> {
    return (await this.repository.list()).map((row) => this.toTenant(row));
  }

  async get(id: string): Promise<Tenant> {
    return this.toTenant(await this.row(id));
  }

  async update(id: string, patch: TenantUpdateIn): Promise<Tenant> {
    const row = await this.row(id);
    if (patch.provider_order) this.assertConfigured(patch.provider_order);
    const changes: Partial<TenantRow> = { updated_at: isoNow(this.now) };
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.status !== undefined) changes.status = patch.status;
    if (patch.limits !== undefined) changes.limits = JSON.stringify(mergeOverrides(JSON.parse(row.limits) as LimitOverrides, patch.limits));
    if (patch.provider_order !== undefined) changes.provider_order = patch.provider_order === null ? null : JSON.stringify(patch.provider_order);
    await this.repository.update(id, changes);
    this.forgetAuthentications();
    return this.get(id);
  }

  async createApiKey(tenantId: string, mode: 'live' | 'test' = 'live'): Promise<{ api_key: string; prefix: string; created_at: string; mode: 'live' | 'test' }> {
    await this.row(tenantId);
    const created_at = isoNow(this.now);
    // A lookup-prefix collision (48 random bits) is retried rather than reported.
    for (let attempt = 0; attempt < 4; attempt++) {
      const apiKey = `${mode === 'test' ? TEST_KEY_PREFIX : API_KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
      // A live key that happens to begin like a test key would be read as one: draw again.
      if (mode === 'live' && apiKey.startsWith(TEST_KEY_PREFIX)) continue;
      const prefix = apiKey.slice(0, lookupPrefixLength(apiKey));
      try {
        await this.repository.insertApiKey({ prefix, tenant_id: tenantId, key_hash: sha256Hex(apiKey), created_at, revoked_at: null });
        return { api_key: apiKey, prefix, created_at, mode };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new Error('Could not allocate a unique API key prefix');
  }

  async listApiKeys(tenantId: string): Promise<TenantApiKeyOut[]> {
    await this.row(tenantId);
    return (await this.repository.listApiKeys(tenantId)).map(apiKeyOut);
  }

  async revokeApiKey(tenantId: string, prefix: string): Promise<TenantApiKeyOut> {
    await this.row(tenantId);
    const key = await this.repository.findApiKey(tenantId, prefix);
    if (!key) throw new AppError('api_key_not_found');
    await this.repository.revokeApiKey(prefix, isoNow(this.now));
    this.forgetAuthentications();
    const revoked = await this.repository.findApiKey(tenantId, prefix);
    return apiKeyOut(revoked ?? key);
  }

  /** Resolves a presented API key: 401 when unknown or revoked, 403 when its tenant is suspended. */
  async authenticate(presented: string): Promise<Tenant> {
    if (!presented.startsWith(API_KEY_PREFIX) || presented.length <= lookupPrefixLength(presented)) throw new AppError('api_key_invalid');
    // The cache is keyed by a digest so that it holds no keys in clear. One-shot crypto.hash: the
    // same SHA-256 hex as sha256Hex, without a Hash object on every request.
    const digest = hash('sha256', presented, 'hex');
    const tenant = this.authCache.get(digest) ?? (await this.verify(presented, digest));
    if (!tenant) throw new AppError('api_key_invalid');
    if (tenant.status !== 'active') throw new AppError('tenant_inactive');
    return tenant;
  }

  /** The tenant of a live key matching `presented`, or undefined; one query for concurrent callers. */
  private verify(presented: string, digest: string): Promise<Tenant | undefined> {
    const pending = this.authLookups.get(digest);
    if (pending) return pending;
    const generation = this.authGeneration;
    const lookup = (async () => {
      const found = await this.repository.findLiveKeyWithTenant(presented.slice(0, lookupPrefixLength(presented)));
      if (!found || !secretMatchesHash(presented, found.key_hash)) return undefined;
      const { key_hash: _hash, ...tenantRow } = found;
      const tenant = frozen({ ...this.toTenant(tenantRow), ...(presented.startsWith(TEST_KEY_PREFIX) ? { testMode: true as const } : {}) });
      if (generation === this.authGeneration) this.authCache.set(digest, tenant);
      return tenant;
    })();
    this.authLookups.set(digest, lookup);
    const done = () => {
      if (this.authLookups.get(digest) === lookup) this.authLookups.delete(digest);
    };
    lookup.then(done, done);
    return lookup;
  }

  /** A tenant or key changed here: takes effect at once for every later request. */
  private forgetAuthentications(): void {
    this.authGeneration += 1;
    this.authLookups.clear();
    this.authCache.clear();
  }

  private async row(id: string): Promise<TenantRow> {
    const row = await this.repository.find(id);
    if (!row) throw new AppError('tenant_not_found');
    return row;
  }

  private assertConfigured(order: readonly ProviderName[]): void {
    const missing = order.filter((name) => (name === 'smtp' && !this.config.smtp) || (name === 'sendgrid' && !this.config.sendgrid.apiKey));
    if (missing.length > 0) {
      throw new AppError('provider_not_configured', {
        message: `provider_order names ${missing.join(', ')}, which this relay has no configuration for (set SMTP_HOST / SENDGRID_API_KEY)`,
        details: missing.map((name) => ({ field: 'provider_order', message: `${name} is not configured` })),
      });
    }
  }
}

function frozen(tenant: Tenant): Tenant {
  Object.freeze(tenant.limits);
  Object.freeze(tenant.provider_order);
  return Object.freeze(tenant);
}

function apiKeyOut(row: ApiKeyRow): TenantApiKeyOut {
  return { prefix: row.prefix, created_at: row.created_at, revoked_at: row.revoked_at, mode: row.prefix.startsWith(TEST_KEY_PREFIX) ? 'test' : 'live' };
}

function lookupPrefixLength(key: string): number {
  return key.startsWith(TEST_KEY_PREFIX) ? TEST_KEY_PREFIX.length + 8 : LOOKUP_PREFIX_LENGTH;
}
