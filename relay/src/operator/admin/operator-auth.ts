// Guards /admin/v1 route plugins. The decision itself is made once, by the root hook in
// operator-access.ts (token → operator → role); this per-plugin hook only refuses a request that
// somehow reached an operator route without an operator, so a route can never be open by mistake.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors/catalogue.js';
import type { OperatorToken } from '../services/operator-token.js';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer (\S+)$/.exec(header);
  return match?.[1] ?? '';
}

/** The token argument is kept for the plugins that pass it; the identity comes from operator-access.ts. */
export function requireOperator(_token: OperatorToken) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.operator !== undefined) return;
    if (bearerToken(request) === undefined) throw new AppError('operator_token_missing');
    throw new AppError('operator_token_invalid');
  };
}
