// The operator credential for /admin/v1 and the console. From RELAY_ADMIN_TOKEN when set; otherwise
// generated on first start and kept in DATA_DIR as a SHA-256 digest only (mode 0600). The cleartext
// exists once, in the answer of ensureOperatorToken, for the caller to print.
import fs from 'node:fs';
import path from 'node:path';
import { generateSecret, secretMatchesHash, sha256Hex } from '../../security/secret-hash.js';

export const OPERATOR_TOKEN_FILE = 'operator-token.sha256';

export type OperatorToken = Readonly<{
  source: 'env' | 'data-dir';
  /** Set only when this call generated the token; print it once, never log it. */
  generated: string | undefined;
  matches(presented: string): boolean;
}>;

export function ensureOperatorToken(options: { dataDir: string; envToken: string | undefined }): OperatorToken {
  if (options.envToken !== undefined) {
    const digest = sha256Hex(options.envToken);
    return Object.freeze({ source: 'env', generated: undefined, matches: (p: string) => secretMatchesHash(p, digest) });
  }
  const file = path.join(options.dataDir, OPERATOR_TOKEN_FILE);
  let digest = readDigest(file);
  let generated: string | undefined;
  if (digest === undefined) {
    const candidate = generateSecret('lwop_');
    // Two relays starting at once on one DATA_DIR: only the first to link its file wins and prints.
    if (writeDigest(file, sha256Hex(candidate), { exclusive: true })) generated = candidate;
    digest = readDigest(file);
    if (digest === undefined) throw new Error(`Could not read the operator token digest at ${file}`);
  }
  const stored = digest;
  return Object.freeze({ source: 'data-dir', generated, matches: (p: string) => secretMatchesHash(p, stored) });
}

/** Replaces the stored token with a new one and returns its cleartext (admin CLI). */
export function rotateOperatorToken(dataDir: string): string {
  const token = generateSecret('lwop_');
  writeDigest(path.join(dataDir, OPERATOR_TOKEN_FILE), sha256Hex(token));
  return token;
}

function readDigest(file: string): string | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(text) ? text : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes the digest atomically (0600, owner only). Exclusive: false when the file already existed. */
function writeDigest(file: string, digest: string, options: { exclusive: boolean } = { exclusive: false }): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Write a temporary file, then link or rename it in place, so a crash never leaves half a credential.
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temporary, `${digest}\n`, { mode: 0o600 });
  try {
    if (!options.exclusive) {
      fs.renameSync(temporary, file);
      return true;
    }
    try {
      fs.linkSync(temporary, file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
