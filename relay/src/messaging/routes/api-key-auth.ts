// Authenticates messaging requests (`Authorization: Bearer <API key>`) and counts each authenticated
// request against the tenant's burst limit, before the body is even parsed: 401 / 403 / 429 come
// before validation. Successful answers carry the RateLimit-* headers of the burst window.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/catalogue.js';
import { GroupedRateCount } from '../../limits/grouped-rate-count.js';
import { rateLimitHeaders, type RateLimiter } from '../../limits/rate-limiter.js';
import type { MessagingModule } from '../messaging-module.js';
import { limitRules } from '../store/tenants/tenant-limits.js';
import type { Tenant } from '../services/tenants/tenant-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    messagingTenant: Tenant | null;
  }
}

export function requireTenant(messaging: MessagingModule) {
  // On PostgreSQL every burst count is a write to one hot row, committed on its own; the requests of a
  // tenant read in the same turn are counted with one write instead (same answers, one row lock).
  const burst: Pick<RateLimiter, 'consume'> = messaging.limiter.countsShortWindowsInTable ? new GroupedRateCount(messaging.limiter) : messaging.limiter;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    const presented = header === undefined ? undefined : (/^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '');
    if (presented === undefined || presented === '') throw new AppError('api_key_missing');
    const tenant = await messaging.tenants.authenticate(presented);
    const decision = await burst.consume(tenant.id, limitRules(tenant.limits).burst);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) throw new AppError('burst_limit_exceeded', { headers });
    reply.headers(headers);
    request.messagingTenant = tenant;
  };
}

/** The authenticated tenant of a request that passed requireTenant. */
export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.messagingTenant) throw new AppError('api_key_missing');
  return request.messagingTenant;
}
