// Writes one audit entry for every mutating operator request (the routes the role map marks with an
// audit action), refused ones included. It runs in onSend, before the answer leaves, so a caller that
// sees the answer can already read the entry; a failure to write is logged loudly, never turned into
// a failed answer for an action that already happened.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operatorRouteRule, isOperatorRoute, type AuditedObject } from '../services/operator-route-roles.js';
import { auditDetails } from '../services/audit/audit-details.js';
import type { AuditLogRepository } from '../store/audit-log-repository.js';

export function registerAuditRecorder(app: FastifyInstance, auditLog: AuditLogRepository, now: () => Date = () => new Date()): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    const operator = request.operator;
    if (!isOperatorRoute(url) || operator === undefined) return payload;
    const audit = operatorRouteRule(request.method, url).audit;
    if (audit === undefined) return payload;
    try {
      await auditLog.append({
        at: now().toISOString(),
        actor_id: operator.id,
        actor_name: operator.name,
        actor_role: operator.role,
        action: audit.action,
        object_type: audit.object.type,
        object_id: objectId(audit.object, request, reply.statusCode, payload) ?? null,
        status: reply.statusCode,
        ip: request.ip,
        user_agent: truncate(request.headers['user-agent'], 500),
        request_id: request.id,
        details: JSON.stringify(auditDetails(request.params, request.body)),
        source: 'api',
      });
    } catch (error) {
      request.log.error({ err: error, action: audit.action, actor: operator.id }, 'could not write the operator audit entry');
    }
    return payload;
  });
}

function objectId(object: AuditedObject, request: FastifyRequest, status: number, payload: unknown): string | undefined {
  if (object.param !== undefined) {
    const value = (request.params as Record<string, unknown> | undefined)?.[object.param];
    return value === undefined ? undefined : String(value);
  }
  if (object.fromResponse === undefined || status >= 300 || typeof payload !== 'string') return undefined;
  try {
    let cursor: unknown = JSON.parse(payload);
    for (const part of object.fromResponse.split('.')) {
      cursor = typeof cursor === 'object' && cursor !== null ? (cursor as Record<string, unknown>)[part] : undefined;
    }
    return typeof cursor === 'string' || typeof cursor === 'number' ? String(cursor) : undefined;
  } catch {
    return undefined;
  }
}

function truncate(value: string | undefined, length: number): string | null {
  if (value === undefined) return null;
  return value.length > length ? value.slice(0, length) : value;
}
