// Operator API bodies for messaging tenants and their API keys (/admin/v1/tenants…).
import { z } from 'zod';
import { ProviderName } from './delivery-status.js';

const limitValue = z.number().int().min(0).max(1_000_000_000);

/** Per-tenant overrides; an absent (or null, in PATCH) value means the contract's default. */
export const TenantLimitsIn = z
  .object({
    burst_per_minute: limitValue.nullable().optional().describe('Every authenticated request; default 100'),
    sustained_per_minute: limitValue.nullable().optional().describe('Accepted messages per minute; default 20'),
    daily_quota: limitValue.nullable().optional().describe('Accepted messages per UTC day; default 100'),
    events_per_minute: limitValue.nullable().optional().describe('Accepted business events per minute; default 100'),
    webhooks_per_minute: limitValue.nullable().optional().describe('Provider webhook batches touching the tenant per minute; default 300'),
  })
  .strict()
  .meta({ id: 'TenantLimitsIn' });
export type TenantLimitsIn = z.infer<typeof TenantLimitsIn>;

export const TenantLimitsOut = z
  .object({
    burst_per_minute: z.number().int(),
    sustained_per_minute: z.number().int(),
    daily_quota: z.number().int(),
    events_per_minute: z.number().int(),
    webhooks_per_minute: z.number().int(),
  })
  .meta({ id: 'TenantLimitsOut' });
export type TenantLimitsOut = z.infer<typeof TenantLimitsOut>;

const providerOrder = z
  .array(ProviderName)
  .min(1, 'must name at least one provider')
  .max(3)
  .refine((list) => new Set(list).size === list.length, 'must not name a provider twice')
  .describe('Providers tried in this order (failover); default: the relay’s MESSAGING_PROVIDERS');

export const TenantCreateIn = z
  .object({
    name: z.string().trim().min(1).max(200),
    org_id: z.number().int().min(0).describe('The organisation id business events carry'),
    limits: TenantLimitsIn.optional(),
    provider_order: providerOrder.optional(),
  })
  .meta({ id: 'TenantCreateIn' });
export type TenantCreateIn = z.infer<typeof TenantCreateIn>;

export const TenantUpdateIn = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    status: z.enum(['active', 'suspended']).optional(),
    limits: TenantLimitsIn.optional(),
    provider_order: providerOrder.nullable().optional().describe('null returns to the relay default'),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'must change at least one field')
  .meta({ id: 'TenantUpdateIn' });
export type TenantUpdateIn = z.infer<typeof TenantUpdateIn>;

export const TenantOut = z
  .object({
    id: z.string().describe('ten_…'),
    name: z.string(),
    org_id: z.number().int(),
    status: z.enum(['active', 'suspended']),
    limits: TenantLimitsOut.describe('Effective limits (overrides merged over the defaults)'),
    provider_order: z.array(ProviderName),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'TenantOut' });
export type TenantOut = z.infer<typeof TenantOut>;

export const TenantEnvelopeOut = z.object({ success: z.literal(true), tenant: TenantOut }).meta({ id: 'TenantEnvelopeOut' });
export const TenantListOut = z.object({ success: z.literal(true), tenants: z.array(TenantOut) }).meta({ id: 'TenantListOut' });

export const TenantApiKeyCreatedOut = z
  .object({
    success: z.literal(true),
    api_key: z.string().describe('The whole key: shown only in this answer'),
    prefix: z.string().describe('Lookup prefix; names the key for revocation'),
    created_at: z.string(),
    mode: z.enum(['live', 'test']),
  })
  .meta({ id: 'TenantApiKeyCreatedOut' });

/** POST /admin/v1/tenants/{id}/api-keys: a live key by default, or a test key (outbox only, simulated events). */
export const TenantApiKeyCreateIn = z
  .object({ mode: z.enum(['live', 'test']).default('live') })
  .strict()
  .meta({ id: 'TenantApiKeyCreateIn' });
export type TenantApiKeyCreateIn = z.infer<typeof TenantApiKeyCreateIn>;
export type TenantApiKeyCreatedOut = z.infer<typeof TenantApiKeyCreatedOut>;

export const TenantApiKeyOut = z
  .object({
    prefix: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    mode: z.enum(['live', 'test']).describe('test: its sends go to the outbox only, with simulated status events'),
  })
  .meta({ id: 'TenantApiKeyOut' });
export type TenantApiKeyOut = z.infer<typeof TenantApiKeyOut>;

export const TenantApiKeyListOut = z.object({ success: z.literal(true), api_keys: z.array(TenantApiKeyOut) }).meta({ id: 'TenantApiKeyListOut' });
export const TenantApiKeyRevokedOut = z.object({ success: z.literal(true), api_key: TenantApiKeyOut }).meta({ id: 'TenantApiKeyRevokedOut' });
