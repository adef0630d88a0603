// Integers in paths and query strings are read by one rule: plain decimal digits, an optional leading
// minus, no leading zero, no sign, space, exponent, fraction or hex — and within a 32-bit integer,
// what every integer column of both databases holds. `z.coerce.number()` alone reads `0x1`, `1e0`,
// ` 1` and `+1` as 1 and lets 1e300 reach PostgreSQL's integer (a 500), so the zod validator compiler
// is wrapped: each coerced number field of a params or querystring schema is checked on its raw text
// first, then the schema judges it as before.
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError, type ErrorDetail } from '../errors/catalogue.js';
import { apiFamilyOf } from '../errors/error-handler.js';

export const MIN_INT32 = -2_147_483_648;
export const MAX_INT32 = 2_147_483_647;

const DECIMAL_INTEGER = /^(?:0|-?[1-9][0-9]{0,9})$/;

/** Why the raw text of an integer parameter is refused, or undefined when it is a decimal int32. */
export function integerTextProblem(raw: unknown): string | undefined {
  if (Array.isArray(raw)) return 'must be given once';
  if (typeof raw !== 'string') return undefined; // absent (the schema decides) or already a number
  if (raw === '') return undefined; // an empty value keeps its meaning for the schema (a default)
  if (!DECIMAL_INTEGER.test(raw)) return 'must be a whole number written in plain decimal digits (no sign, spaces, leading zeros, exponent or hex)';
  const value = Number(raw);
  if (value < MIN_INT32 || value > MAX_INT32) return `must be between ${MIN_INT32} and ${MAX_INT32}`;
  return undefined;
}

type ZodNode = z.core.$ZodType;

/** The number schema under optional/default/nullable wrappers, when it coerces its input. */
function coercedNumber(schema: ZodNode): boolean {
  let node: ZodNode | undefined = schema;
  for (let i = 0; i < 10 && node; i++) {
    const def = node._zod.def as { type: string; innerType?: ZodNode; coerce?: boolean };
    if (def.type === 'number') return def.coerce === true;
    node = def.innerType;
  }
  return false;
}

/** The keys of an object schema whose values are coerced numbers. */
export function coercedIntegerKeys(schema: unknown): string[] {
  // By its definition, not instanceof: a schema may come from another copy of zod (shared's).
  const def = (schema as { _zod?: { def?: { type?: string; shape?: Record<string, ZodNode> } } } | undefined)?._zod?.def;
  if (def?.type !== 'object' || !def.shape) return [];
  return Object.entries(def.shape)
    .filter(([, field]) => coercedNumber(field))
    .map(([key]) => key);
}

function refusal(url: string, part: 'params' | 'querystring', details: ErrorDetail[]): AppError {
  if (apiFamilyOf(url) === 'messaging') return new AppError('validation_failed', { details });
  const where = part === 'params' ? 'path' : 'query';
  const first = details[0]?.message ?? 'is not a valid integer';
  return new AppError('bad_request', { message: `${first} (${where})`, details });
}

/** fastify-type-provider-zod's validator compiler with the integer rule in front of params and querystring schemas. */
export const strictValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (routeSchema) => {
  const validate = validatorCompiler(routeSchema);
  const part = routeSchema.httpPart;
  if (part !== 'params' && part !== 'querystring') return validate;
  const keys = coercedIntegerKeys(routeSchema.schema);
  if (keys.length === 0) return validate;
  return (data: unknown) => {
    const record = (data ?? {}) as Record<string, unknown>;
    const details: ErrorDetail[] = [];
    for (const key of keys) {
      const problem = integerTextProblem(record[key]);
      if (problem) details.push({ field: key, message: `The ${key} field ${problem}` });
    }
    if (details.length > 0) return { error: refusal(routeSchema.url, part, details) };
    return validate(data);
  };
};
