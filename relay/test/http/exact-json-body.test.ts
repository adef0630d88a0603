// Which JSON numbers a double carries as written, and what the body parser hands on for the others.
import { describe, expect, it } from 'vitest';
import { quoteInexactNumbers } from '../../src/http/exact-json-body.js';

describe('quoteInexactNumbers', () => {
  it('leaves a body whose numbers a double carries exactly alone, however they are written', () => {
    for (const body of ['{"a":100.50,"b":1e2,"c":0.1,"d":-0,"e":0.30000000000000004,"f":9007199254740991,"g":1e21,"h":[1,2.5,-3E-2]}', '[]', '"12345678901234567890"']) {
      expect(quoteInexactNumbers(body), body).toBeUndefined();
    }
  });

  it('writes each number a double does not carry as the string of its digits, and nothing else', () => {
    const body = '{"amount":0.070000000000000001,"note":"0.070000000000000001 1e-400","n":[9007199254740993,1e-400,1e400,7]}';
    const exact = quoteInexactNumbers(body);
    expect(exact).toBe('{"amount":"0.070000000000000001","note":"0.070000000000000001 1e-400","n":["9007199254740993","1e-400","1e400",7]}');
    expect(JSON.parse(exact as string).n).toEqual(['9007199254740993', '1e-400', '1e400', 7]);
  });

  it('skips digits inside strings, escaped quotes included', () => {
    expect(quoteInexactNumbers('{"a":"say \\"90071992547409.93\\"","b":2}')).toBeUndefined();
    expect(quoteInexactNumbers('{"a\\\\":90071992547409.93}')).toBe('{"a\\\\":"90071992547409.93"}');
  });
});
