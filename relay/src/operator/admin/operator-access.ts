// Who may call what under /admin/v1, decided in one place: a root onRequest hook resolves the bearer
// token to an operator (bootstrap token or account, read from the database on every request so a
// rotation or revocation holds at once on every relay process), then checks the route's role in
// operator-route-roles.ts. Routes add nothing of their own; 403 operator_role_insufficient otherwise.
import { roleAllows } from '@ledgerwire/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/catalogue.js';
import { bearerToken } from './operator-auth.js';
import type { OperatorAccountService, OperatorIdentity } from '../services/operator-account-service.js';
import { isOperatorRoute, operatorRouteRule } from '../services/operator-route-roles.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated operator; set for every /admin/v1 request that got past the token check. */
    operator: OperatorIdentity | undefined;
  }
}

export function registerOperatorAccess(app: FastifyInstance, accounts: OperatorAccountService): void {
  app.decorateRequest('operator', undefined);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!isOperatorRoute(url)) return;
    const presented = bearerToken(request);
    if (presented === undefined) throw new AppError('operator_token_missing');
    const identity = presented === '' ? undefined : await accounts.authenticate(presented);
    if (identity === undefined) throw new AppError('operator_token_invalid');
    request.operator = identity;
    const needed = operatorRouteRule(request.method, url).role;
    if (!roleAllows(identity.role, needed)) {
      throw new AppError('operator_role_insufficient', {
        message: `This needs the ${needed} role; "${identity.name}" has the ${identity.role} role`,
      });
    }
  });
}
