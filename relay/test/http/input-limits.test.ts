// The pure rules of the input edge: depth counted on the text, the iterative walk of a parsed body,
// the URL check, and the one integer rule for paths and queries.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/catalogue.js';
import { assertStorableJson, INPUT_LIMITS, jsonDepthExceeds, urlProblem } from '../../src/http/input-limits.js';
import { integerTextProblem } from '../../src/http/strict-integer-params.js';

function refusalOf(work: () => void): AppError | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonDepthExceeds('[[[1]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[1]]]]', 3)).toBe(true);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(100)}","b":"\\"[[[[["}`, 1)).toBe(false);
    expect(jsonDepthExceeds(`${'['.repeat(1_000_000)}`, INPUT_LIMITS.maxDepth)).toBe(true);
    expect(jsonDepthExceeds('[1],[2],[3]', 1)).toBe(false);
  });
});

describe('assertStorableJson', () => {
  it('names the field holding a NUL or a lone surrogate, in values and keys', () => {
    expect(refusalOf(() => assertStorableJson({ data: { list: ['ok', 'a\u0000'] } }))?.details[0]).toEqual({ field: 'data.list[1]', message: 'holds a NUL character (U+0000)' });
    expect(refusalOf(() => assertStorableJson({ id: 'txn-\ud800' }))?.code).toBe('invalid_characters');
    expect(refusalOf(() => assertStorableJson({ id: '\udc00' }))?.code).toBe('invalid_characters');
    expect(refusalOf(() => assertStorableJson({ ['k\u0000']: 1 }))?.code).toBe('invalid_characters');
    // A surrogate pair is well-formed: an emoji is text like any other.
    expect(refusalOf(() => assertStorableJson({ name: 'Ada 😀', 'é': ['ü'] }))).toBeUndefined();
  });

  it('bounds depth, array length, key count and string length without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(refusalOf(() => assertStorableJson(deep))?.code).toBe('nesting_too_deep');
    expect(refusalOf(() => assertStorableJson({ a: Array(INPUT_LIMITS.maxArrayLength + 1).fill(0) }))?.code).toBe('too_many_items');
    expect(refusalOf(() => assertStorableJson(Object.fromEntries(Array.from({ length: INPUT_LIMITS.maxObjectKeys + 1 }, (_, i) => [`k${i}`, i]))))?.code).toBe('too_many_items');
    expect(refusalOf(() => assertStorableJson({ html: 'x'.repeat(INPUT_LIMITS.maxStringLength + 1) }))?.code).toBe('string_too_long');
    expect(refusalOf(() => assertStorableJson({ html: 'x'.repeat(INPUT_LIMITS.maxStringLength) }))).toBeUndefined();
  });
});

describe('urlProblem', () => {
  it('passes ordinary URLs, encoded UTF-8 and plus-as-space', () => {
    for (const url of ['/api/v1/transactions/abc', '/api/v1/customers?name=%C3%A9t%C3%A9+x', '/x?a=1&&b=', '/x?flag', '/%F0%9F%98%80']) {
      expect(urlProblem(url), url).toBeUndefined();
    }
  });

  it('refuses NUL, encoded surrogates, malformed encodings and overlong query values', () => {
    expect(urlProblem('/a%00b')?.code).toBe('invalid_characters');
    expect(urlProblem('/x?q=%00')?.details[0]?.field).toBe('query parameter q');
    expect(urlProblem('/x?%00=1')?.code).toBe('invalid_characters');
    expect(urlProblem('/x/%ED%A0%80')?.code).toBe('bad_request');
    expect(urlProblem('/x?q=%E0%A4')?.code).toBe('bad_request');
    expect(urlProblem('/x?q=%zz')?.code).toBe('bad_request');
    expect(urlProblem(`/x?q=${'a'.repeat(INPUT_LIMITS.maxQueryValueLength + 1)}`)?.code).toBe('string_too_long');
  });
});

describe('integerTextProblem', () => {
  it('reads plain decimal digits within 32 bits only: 0x1 is not 1', () => {
    for (const ok of ['0', '1', '42', '-7', '2147483647', '-2147483648', undefined, 5]) expect(integerTextProblem(ok), String(ok)).toBeUndefined();
    for (const bad of ['0x1', '1e0', '+1', ' 1', '1 ', '01', '-0', '1.0', '1_000', '2147483648', '-2147483649', '99999999999', 'Infinity', 'NaN']) {
      expect(integerTextProblem(bad), bad).toMatch(/plain decimal|between/);
    }
    expect(integerTextProblem(['1', '2'])).toBe('must be given once');
  });
});
