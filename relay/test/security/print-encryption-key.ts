// A relay process's start in miniature, for encryption-key.test.ts: ensures the key in DATA_DIR
// (argv[2]) and prints it, so several of these started at once show whether they agree.
import { ensureEncryptionKey } from '../../src/security/encryption-key.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: print-encryption-key.ts DATA_DIR');
process.stdout.write(`${ensureEncryptionKey({ dataDir, envKey: undefined }).key.toString('base64')}\n`);
