// /admin/v1/operators (admin) and /admin/v1/audit-log (every role). Thin: schema and one service call;
// the roles come from operator-route-roles.ts and the audit entries from audit-recorder.ts.
import {
  AuditLogOut,
  AuditLogQuery,
  OperatorAccountIn,
  OperatorAccountListOut,
  OperatorAccountOut,
  OperatorAccountTokenOut,
} from '@ledgerwire/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors/catalogue.js';

const docs = (summary: string) => ({ tags: ['operator'], summary, security: [{ operatorToken: [] }] });
const IdParams = z.object({ id: z.string().min(1).max(60) });

export const operatorAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts, auditLog } = app.operators;
  // operator-access.ts has set the operator before any handler runs; the check keeps the type honest.
  const actorId = (request: FastifyRequest): string => {
    if (request.operator === undefined) throw new AppError('operator_token_missing');
    return request.operator.id;
  };

  app.post(
    '/operators',
    { schema: { ...docs('Create a named operator account (admin); its token is shown only in this answer'), body: OperatorAccountIn, response: { 201: OperatorAccountTokenOut } } },
    async (request, reply) => {
      reply.code(201);
      return { success: true as const, ...(await accounts.create(request.body, actorId(request))) };
    },
  );

  app.get('/operators', { schema: { ...docs('List operator accounts (admin), revoked ones included'), response: { 200: OperatorAccountListOut } } }, async () => ({
    success: true as const,
    operators: await accounts.list(),
  }));

  app.get('/operators/:id', { schema: { ...docs('One operator account (admin)'), params: IdParams, response: { 200: OperatorAccountOut } } }, async (request) => ({
    success: true as const,
    operator: await accounts.get(request.params.id),
  }));

  app.post(
    '/operators/:id/rotate-token',
    { schema: { ...docs('A new token for the account (admin); the old one is refused from now on; the new one is shown only here'), params: IdParams, response: { 200: OperatorAccountTokenOut } } },
    async (request) => ({ success: true as const, ...(await accounts.rotateToken(request.params.id)) }),
  );

  app.delete(
    '/operators/:id',
    { schema: { ...docs('Revoke the account (admin): its token is refused at once on every relay; the account stays listed and in the audit log'), params: IdParams, response: { 200: OperatorAccountOut } } },
    async (request) => ({ success: true as const, operator: await accounts.revoke(request.params.id) }),
  );

  app.get(
    '/audit-log',
    { schema: { ...docs('The operator audit log, newest first: who did what to which object, when, from where, with what outcome'), querystring: AuditLogQuery, response: { 200: AuditLogOut } } },
    async (request) => {
      const { entries, nextBeforeId } = await auditLog.list(request.query);
      return { success: true as const, entries, next_before_id: nextBeforeId };
    },
  );
};
