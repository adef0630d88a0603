// Guards /admin/v1: Authorization: Bearer <operator token>, compared in constant time.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/catalogue.js';
import type { OperatorToken } from './operator-token.js';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer (\S+)$/.exec(header);
  return match?.[1] ?? '';
}

export function requireOperator(token: OperatorToken) {
  return async (request: FastifyRequest): Promise<void> => {
    const presented = bearerToken(request);
    if (presented === undefined) throw new AppError('operator_token_missing');
    if (presented === '' || !token.matches(presented)) throw new AppError('operator_token_invalid');
  };
}
