// Authentication of /api/v1 (contract, authentication rule 1): `Authorization: Bearer {key_id}:{secret}`
// exactly — a malformed header (trailing whitespace included), an unknown or revoked key → 401. Then
// the key's request budget (per key per minute, counted in the database so every relay process
// shares it) → 429 with Retry-After.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/catalogue.js';
import { MINUTE_MS, rateLimitHeaders, type RateLimitDecision, type RateLimitRule } from '../../limits/rate-limiter.js';
import type { ApplicationService, AuthenticatedKey } from '../services/applications/application-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    bridgeKey?: AuthenticatedKey;
  }
}

const CREDENTIAL = /^Bearer ([A-Za-z0-9_]{1,100}):([A-Za-z0-9_-]{1,200})$/;

export function bridgeKeyOf(request: FastifyRequest): AuthenticatedKey {
  if (!request.bridgeKey) throw new AppError('bridge_credential_missing');
  return request.bridgeKey;
}

/** The RateLimiter itself, or a GroupedRateCount over it (one counter write for concurrent requests). */
export type KeyRequestCounter = Readonly<{ consume(scope: string, rule: RateLimitRule): Promise<RateLimitDecision> }>;

export function requireBridgeKey(deps: { applications: ApplicationService; counter: KeyRequestCounter; limitPerMinute: number }) {
  const rule = { name: 'bridge-key', limit: deps.limitPerMinute, windowMs: MINUTE_MS };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') throw new AppError('bridge_credential_missing');
    const match = CREDENTIAL.exec(header);
    if (!match) {
      throw new AppError('bridge_credential_invalid', {
        message: 'Malformed credential: send exactly "Authorization: Bearer <key_id>:<secret>" with no surrounding whitespace',
      });
    }
    const key = await deps.applications.authenticate(match[1] ?? '', match[2] ?? '');
    if (!key) throw new AppError('bridge_credential_invalid');
    const decision = await deps.counter.consume(key.keyId, rule);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new AppError('rate_limited', { message: `More than ${rule.limit} requests this minute for this key; retry after ${decision.resetSeconds} s`, headers });
    }
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    request.bridgeKey = key;
  };
}
