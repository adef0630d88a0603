// TallyPrime's address as a shop owner types it: a full URL, or another computer's name or IP address
// alone, which means TallyPrime's usual http and port 9000.
import { describe, expect, it } from 'vitest';
import { booksUrlFrom, loadConnectorConfig } from '../../src/core/config/load-config.js';

describe("TallyPrime's address", () => {
  it('takes what a person types and makes it a URL', () => {
    expect(booksUrlFrom('http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000');
    expect(booksUrlFrom(' 192.168.1.20 ')).toBe('http://192.168.1.20:9000');
    expect(booksUrlFrom('accounts-pc:9001')).toBe('http://accounts-pc:9001');
    expect(booksUrlFrom('http://accounts-pc')).toBe('http://accounts-pc');
  });

  it('refuses what is not an address, in words', () => {
    expect(() => booksUrlFrom('ftp://accounts-pc')).toThrow('books URL "ftp://accounts-pc" must start with http:// (e.g. http://127.0.0.1:9000)');
    expect(() => booksUrlFrom('two words')).toThrow(/"two words" is not an address of TallyPrime/);
    expect(() => loadConnectorConfig({ booksUrl: 'ftp://x' }, {})).toThrow(/must start with http:\/\//);
  });
});
