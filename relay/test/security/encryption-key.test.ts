// The encryption key for secrets at rest: from RELAY_ENCRYPTION_KEY (validated, never echoed), or a
// key file generated once in DATA_DIR, mode 0600, that relays starting together all agree on.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';
import { ENCRYPTION_KEY_FILE, ensureEncryptionKey, secretBoxFor } from '../../src/security/encryption-key.js';
import { SecretBox, SecretUnreadableError } from '../../src/security/secret-box.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-key-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('encryption key', () => {
  it('generates the key file once, 0600, and reads the same key back', () => {
    const dataDir = path.join(tempDir(), 'data');
    const first = ensureEncryptionKey({ dataDir, envKey: undefined });
    const file = path.join(dataDir, ENCRYPTION_KEY_FILE);
    expect(first.source).toBe('data-dir');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const written = fs.readFileSync(file, 'utf8');
    const again = ensureEncryptionKey({ dataDir, envKey: undefined });
    expect(again.key.equals(first.key)).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe(written);
    expect(fs.readdirSync(dataDir)).toEqual([ENCRYPTION_KEY_FILE]);
  });

  it('gives relays starting at once on one DATA_DIR the same key', async () => {
    const dataDir = tempDir();
    const script = path.join(here, 'print-encryption-key.ts');
    const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');
    const outputs = await Promise.all([1, 2, 3, 4].map(() => run(tsx, [script, dataDir])));
    const keys = new Set(outputs.map((o) => o.stdout.trim()));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toBe(ensureEncryptionKey({ dataDir, envKey: undefined }).key.toString('base64'));
    expect(fs.readdirSync(dataDir)).toEqual([ENCRYPTION_KEY_FILE]);
  });

  it('takes RELAY_ENCRYPTION_KEY instead of a file, and every box from it opens what another sealed', () => {
    const dataDir = tempDir();
    const envKey = randomBytes(32).toString('base64');
    const config = loadConfig({ DATA_DIR: dataDir, RELAY_ENCRYPTION_KEY: envKey });
    expect(config.encryptionKey).toBe(envKey);
    const sealed = secretBoxFor(config).seal('whsec_abc', 'wh_1');
    expect(secretBoxFor(config).open(sealed, 'wh_1')).toBe('whsec_abc');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a key that is not 32 bytes of base64 without echoing it', () => {
    for (const bad of ['not a key', randomBytes(16).toString('base64'), randomBytes(33).toString('base64')]) {
      let error: unknown;
      try {
        loadConfig({ RELAY_ENCRYPTION_KEY: bad });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^Invalid configuration: RELAY_ENCRYPTION_KEY must be 32 random bytes in base64/);
      expect((error as Error).message).not.toContain(bad);
    }
    expect(loadConfig({ RELAY_ENCRYPTION_KEY: randomBytes(32).toString('base64url') }).encryptionKey).toBeDefined();
  });

  it('refuses to replace a key file that holds no key (its secrets would be lost)', () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, ENCRYPTION_KEY_FILE), 'damaged\n');
    expect(() => ensureEncryptionKey({ dataDir, envKey: undefined })).toThrow(/does not hold a 32-byte base64 key/);
  });
});

describe('secret box', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals each value with a fresh IV and opens it only for the row it was sealed for', () => {
    const a = box.seal('whsec_same', 'wh_1');
    const b = box.seal('whsec_same', 'wh_1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^enc:v1:/);
    expect(box.open(a, 'wh_1')).toBe('whsec_same');
    expect(() => box.open(a, 'wh_2')).toThrow(SecretUnreadableError);
    // One character of the ciphertext changed (the one replaced, not its neighbour, decides the swap: a
    // swap of 'A' for 'A' changed nothing once in 64 runs).
    const tampered = `${a.slice(0, -2)}${a.at(-2) === 'A' ? 'B' : 'A'}${a.slice(-1)}`;
    expect(tampered).not.toBe(a);
    expect(() => box.open(tampered, 'wh_1')).toThrow(/integrity check/);
  });

  it('passes clear legacy values and empty ones through, and names the key when another sealed it', () => {
    expect(box.open('whsec_legacy', 'wh_1')).toBe('whsec_legacy');
    expect(box.seal('', 'wh_1')).toBe('');
    const other = new SecretBox(randomBytes(32));
    expect(() => box.open(other.seal('whsec_x', 'wh_1'), 'wh_1')).toThrow(new RegExp(`encrypted with key ${other.keyId}, but this relay has key ${box.keyId}`));
  });
});
