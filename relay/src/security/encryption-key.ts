// The relay's encryption key for secrets kept at rest (secret-box.ts). From RELAY_ENCRYPTION_KEY when
// set; otherwise generated on first start and kept beside the database in DATA_DIR (mode 0600), the
// way the operator token's digest is kept. Several relays on one PostgreSQL do not share a DATA_DIR,
// so there the key must come from the environment, the same on every relay (see the README).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { KeyedDigest } from './keyed-digest.js';
import { SecretBox } from './secret-box.js';

export const ENCRYPTION_KEY_FILE = 'encryption-key';

export type EncryptionKey = Readonly<{ key: Buffer; source: 'env' | 'data-dir' }>;

/** Decodes a base64 (or base64url) key; undefined unless it is exactly 32 bytes. */
export function decodeEncryptionKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  return key.length === 32 ? key : undefined;
}

export function ensureEncryptionKey(options: { dataDir: string; envKey: string | undefined }): EncryptionKey {
  if (options.envKey !== undefined) {
    const key = decodeEncryptionKey(options.envKey);
    if (!key) throw new Error('RELAY_ENCRYPTION_KEY must be 32 bytes in base64');
    return Object.freeze({ key, source: 'env' });
  }
  const file = path.join(options.dataDir, ENCRYPTION_KEY_FILE);
  let key = readKey(file);
  if (key === undefined) {
    // Two relays starting at once on one DATA_DIR: the first to link its file wins, and both read it back.
    writeKeyExclusively(file, randomBytes(32));
    key = readKey(file);
    if (key === undefined) throw new Error(`Could not read the encryption key at ${file}`);
  }
  return Object.freeze({ key, source: 'data-dir' });
}

/** The secret box for this relay's config (the server and the admin CLI alike). */
/** Structural, not RelayConfig: the config loader validates keys with decodeEncryptionKey, so security sits below config. */
export function secretBoxFor(config: Readonly<{ dataDir: string; encryptionKey?: string | undefined }>): SecretBox {
  return new SecretBox(ensureEncryptionKey({ dataDir: config.dataDir, envKey: config.encryptionKey }).key);
}

/** Keyed digests for `purpose` under a key derived from this relay's encryption key (keyed-digest.ts). */
export function keyedDigestFor(config: Readonly<{ dataDir: string; encryptionKey?: string | undefined }>, purpose: string): KeyedDigest {
  return new KeyedDigest(ensureEncryptionKey({ dataDir: config.dataDir, envKey: config.encryptionKey }).key, purpose);
}

function readKey(file: string): Buffer | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = decodeEncryptionKey(text);
  // A file that exists but holds no key is not replaced: every secret sealed with it would be lost.
  if (!key) throw new Error(`${file} does not hold a 32-byte base64 key; restore it from a backup, or set RELAY_ENCRYPTION_KEY`);
  return key;
}

/** Writes a temporary file (0600) and links it in place, so nobody ever reads half a key. */
function writeKeyExclusively(file: string, key: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${Date.now()}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, `${key.toString('base64')}\n`, { mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
