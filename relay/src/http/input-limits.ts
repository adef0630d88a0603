// What every piece of text a request carries must be before any route, service or database sees it:
// no NUL (PostgreSQL refuses it mid-write while SQLite stores it), well-formed UTF-16 (PostgreSQL
// turns a lone surrogate into U+FFFD, so two different ids would become one), and JSON bodies of a
// bounded shape (deep nesting overflows the stack of every recursive walk after the parser: the
// idempotency fingerprint, Handlebars, JSON.stringify on the way to the database). Checked once, here,
// so both databases judge every input alike.
import { AppError } from '../errors/catalogue.js';
import type { LongStrings } from '../foundation/long-json-strings.js';

export const INPUT_LIMITS = Object.freeze({
  /** Arrays and objects inside one another; free-form `data` of a send or an event is the deepest legitimate body. */
  maxDepth: 32,
  /** Elements of one array; every list a schema accepts is far shorter. */
  maxArrayLength: 10_000,
  /** Keys of one object. */
  maxObjectKeys: 1_000,
  /** Characters of one string (a template's HTML is the longest legitimate text: 512 KiB). */
  maxStringLength: 512 * 1024,
  /** Characters of one decoded query value (ids, filters, a search term; none is near it). */
  maxQueryValueLength: 2_000,
});

/** Node 20 has String.prototype.isWellFormed (ES2024); the project's lib is older. */
type WellFormedString = string & { isWellFormed(): boolean };

/** Why a piece of text cannot be stored, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'holds a NUL character (U+0000)';
  if (!(text as WellFormedString).isWellFormed()) return 'holds an unpaired UTF-16 surrogate (ill-formed Unicode)';
  return undefined;
}

function characterError(where: string, problem: string): AppError {
  return new AppError('invalid_characters', {
    message: `The ${where} ${problem}, which cannot be stored; remove it`,
    details: [{ field: where, message: problem }],
  });
}

/** A JSON path for messages: `data.a.b[3]`. */
function pathOf(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out === '' ? 'body' : out;
}

/**
 * The nesting depth of a JSON text, stopping as soon as it passes `max`: counted on the text, without
 * recursion, before JSON.parse builds anything (brackets inside strings do not count).
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export type { LongStrings } from '../foundation/long-json-strings.js';

/**
 * Throws the refusal for the first string, key, array or object of a parsed JSON body that breaks a
 * limit. Iterative (an explicit stack), so no body can overflow it. Nearly every body is fine: a
 * first pass only says whether it is, without building the paths a refusal names.
 */
export function assertStorableJson(value: unknown, longStrings?: LongStrings): void {
  if (isStorableJson(value)) return;
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) throw characterError(pathOf(path), problem);
      const allowedLong = longStrings !== undefined && current.length <= longStrings.max && longStrings.allows(path);
      if (current.length > INPUT_LIMITS.maxStringLength && !allowedLong) {
        throw limitError('string_too_long', pathOf(path), `is longer than ${INPUT_LIMITS.maxStringLength} characters`);
      }
    } else if (Array.isArray(current)) {
      if (path.length >= INPUT_LIMITS.maxDepth) throw limitError('nesting_too_deep', pathOf(path), `nests arrays and objects more than ${INPUT_LIMITS.maxDepth} deep`);
      if (current.length > INPUT_LIMITS.maxArrayLength) {
        throw limitError('too_many_items', pathOf(path), `has more than ${INPUT_LIMITS.maxArrayLength} elements`);
      }
      current.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
    } else if (typeof current === 'object' && current !== null) {
      if (path.length >= INPUT_LIMITS.maxDepth) throw limitError('nesting_too_deep', pathOf(path), `nests arrays and objects more than ${INPUT_LIMITS.maxDepth} deep`);
      const keys = Object.keys(current);
      if (keys.length > INPUT_LIMITS.maxObjectKeys) {
        throw limitError('too_many_items', pathOf(path), `has more than ${INPUT_LIMITS.maxObjectKeys} keys`);
      }
      for (const key of keys) {
        const problem = textProblem(key);
        if (problem) throw characterError(`key ${JSON.stringify(key.replace(/[^\x20-\x7e]/g, '?'))} of ${pathOf(path)}`, problem);
        stack.push({ value: (current as Record<string, unknown>)[key], path: [...path, key] });
      }
    }
  }
}

/** Whether assertStorableJson would pass `value`: the same checks, no paths, no allocation per string. */
function isStorableJson(value: unknown): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() as number;
    if (typeof current === 'string') {
      if (current.length > INPUT_LIMITS.maxStringLength || textProblem(current) !== undefined) return false;
    } else if (typeof current === 'object' && current !== null) {
      if (depth >= INPUT_LIMITS.maxDepth) return false;
      if (Array.isArray(current)) {
        if (current.length > INPUT_LIMITS.maxArrayLength) return false;
        for (const item of current) {
          values.push(item);
          depths.push(depth + 1);
        }
      } else {
        const keys = Object.keys(current);
        if (keys.length > INPUT_LIMITS.maxObjectKeys) return false;
        for (const key of keys) {
          if (textProblem(key) !== undefined) return false;
          values.push((current as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
      }
    }
  }
  return true;
}

function limitError(code: 'string_too_long' | 'too_many_items' | 'nesting_too_deep', where: string, problem: string): AppError {
  return new AppError(code, { message: `The ${where} ${problem}`, details: [{ field: where, message: problem }] });
}

/** The refusal of a JSON text nested deeper than the limit, before it is parsed. */
export function depthError(): AppError {
  return new AppError('nesting_too_deep', {
    message: `The body nests arrays and objects more than ${INPUT_LIMITS.maxDepth} deep`,
  });
}

/** Printable ASCII (U+0021–U+007E) except `%`. */
const PLAIN_URL = /^[\x21-\x24\x26-\x7e]*$/;

/**
 * The refusal for a request URL whose path or query cannot be decoded, holds a NUL or ill-formed
 * Unicode; undefined when it is fine. Decoded as the router and the query parser do (`+` is a space
 * in the query), but strictly: a malformed percent-encoding is refused rather than passed on raw.
 */
export function urlProblem(url: string): AppError | undefined {
  // Printable ASCII without `%` decodes to itself: no NUL, no surrogate, and no value longer than the whole URL.
  if (url.length <= INPUT_LIMITS.maxQueryValueLength && PLAIN_URL.test(url)) return undefined;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const parts: { where: string; raw: string }[] = [{ where: 'path', raw: path }];
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    const name = equals === -1 ? piece : piece.slice(0, equals);
    parts.push({ where: 'query', raw: name.replaceAll('+', ' ') });
    if (equals !== -1) parts.push({ where: `query parameter ${safeName(name)}`, raw: piece.slice(equals + 1).replaceAll('+', ' ') });
  }
  for (const { where, raw } of parts) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return new AppError('bad_request', {
        message: `The ${where} holds a malformed percent-encoding (or bytes that are not UTF-8)`,
        details: [{ field: where, message: 'malformed percent-encoding' }],
      });
    }
    const problem = textProblem(decoded);
    if (problem) return characterError(where, problem);
    if (where !== 'path' && decoded.length > INPUT_LIMITS.maxQueryValueLength) {
      return limitError('string_too_long', where, `is longer than ${INPUT_LIMITS.maxQueryValueLength} characters`);
    }
  }
  return undefined;
}

function safeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' ')).replace(/[^\x20-\x7e]/g, '?').slice(0, 60);
  } catch {
    return '?';
  }
}
