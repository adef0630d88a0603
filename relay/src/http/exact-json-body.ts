// JSON request bodies whose numbers reach the schemas as written. JSON.parse reads every number as a
// double, so `0.070000000000000001` arrives as 0.07 and `90071992547409.93` as 90071992547409.94: a
// value the caller did not send, and a schema can only see the double. So a number that a double does
// not carry digit for digit is handed on as its exact text instead (a JSON string): the exact decimal
// rules of amounts, quantities and rates judge those digits and name the field ("at most 2 decimal
// places (read as 0.070000000000000001)"), and any other number field refuses a string. Numbers a double
// does carry, however written (`100.50`, `1e2`, `0.1`), are read as usual.
import type { FastifyInstance } from 'fastify';
import { assertStorableJson, depthError, INPUT_LIMITS, jsonDepthExceeds, type LongStrings } from './input-limits.js';

/** `-0012.3400e+2` → its significant digits and the power of ten of the last one: ['1234', 0]. */
function decimalValue(text: string): [digits: string, exponent: number] {
  const match = /^-?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return [text, 0];
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  let digits = (whole + fraction).replace(/^0+/, '');
  let exponent = Number(match[3] ?? 0) - fraction.length;
  const trailing = /0*$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return digits === '' ? ['0', 0] : [digits, exponent];
}

/**
 * Whether the double JSON.parse reads from `token` is the very number it writes (1e-400 reads as 0,
 * 1e400 as Infinity). Most tokens are written as JavaScript writes their double (`2`, `100.5`): those
 * are exact without taking their digits apart.
 */
function readsExactly(token: string): boolean {
  const read = String(Number(token));
  if (read === token) return true;
  const [digits, exponent] = decimalValue(token);
  const [readDigits, readExponent] = decimalValue(read);
  return digits === readDigits && exponent === readExponent;
}

/** Strings (skipped whole, so digits inside them are not numbers) and numbers of a valid JSON text. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * A number written with at most 15 digits and no exponent is always carried exactly (a double holds
 * any 15 significant decimal digits), so only a text with a longer run of digits and points, or a
 * digit before an exponent, can hold an inexact one. Strings are not told apart here: a long run
 * inside one only sends the text through the full check.
 */
const MAYBE_INEXACT = /[0-9][0-9.]{15}|[0-9][eE][+-]?[0-9]/;

/**
 * The valid JSON text with each number a double does not carry exactly written as a string of its
 * digits; undefined when there is none (the common case: nothing is copied).
 */
export function quoteInexactNumbers(json: string): string | undefined {
  if (!MAYBE_INEXACT.test(json)) return undefined;
  let out: string | undefined;
  let copied = 0;
  for (const match of json.matchAll(TOKENS)) {
    const token = match[0];
    if (token.startsWith('"') || readsExactly(token)) continue;
    out = `${out ?? ''}${json.slice(copied, match.index)}"${token}"`;
    copied = match.index + token.length;
  }
  return out === undefined ? undefined : out + json.slice(copied);
}

/**
 * Replaces the JSON body parser with Fastify's own (same poisoning rules and errors) that keeps numbers
 * exact, and refuses a body outside the input limits (depth, sizes, NUL, ill-formed Unicode) before
 * any route sees it.
 */
export function registerExactJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepthExceeds(text, INPUT_LIMITS.maxDepth)) return done(depthError(), undefined);
    const checked = (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      try {
        // A route may let named strings be longer (config.longJsonStrings: a send's attachments).
        const longStrings = (request.routeOptions.config as { longJsonStrings?: LongStrings } | undefined)?.longJsonStrings;
        assertStorableJson(value, longStrings);
      } catch (refusal) {
        return done(refusal as Error, undefined);
      }
      done(null, value);
    };
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const exact = quoteInexactNumbers(text);
      if (exact === undefined) return checked(null, value);
      parseJson(request, exact, checked);
    });
  });
}
