// Command-line options of `npm run emulator -- --port 9000 --control-port 9001 --data DIR --seed demo
// [--vouchers N] [--host H] [--load FILE [--load-as NAME]]…`, with their defaults. Bad options throw
// with a clear message.
import path from 'node:path';
import { SEED_NAMES, type SeedName } from '../seeds/seed-books.js';

export interface CliOptions {
  port: number;
  controlPort: number;
  dataDir: string;
  seed: SeedName;
  vouchers: number;
  host: string;
  /** TallyPrime XML files to load as companies (`--load`), each optionally named (`--load-as`). */
  load: { file: string; name?: string }[];
}

export const USAGE =
  'usage: emulator [--port 9000] [--control-port 9001] [--data ./data/emulator] [--seed demo|empty] [--vouchers N] [--host 127.0.0.1] [--load company.xml [--load-as "Company Name"]]';

function integer(flag: string, value: string | undefined, max: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 0 || n > max) throw new Error(`${flag} needs a whole number from 0 to ${max}`);
  return n;
}

/**
 * Where a relative --data is taken from: the directory `npm run` was started in (npm runs the
 * workspace script inside emulator/, but `./data/emulator` means the caller's directory).
 */
export function invocationDir(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

export function parseCliOptions(argv: string[], baseDir = '.'): CliOptions {
  const options: CliOptions = { port: 9000, controlPort: 9001, dataDir: './data/emulator', seed: 'demo', vouchers: 0, host: '127.0.0.1', load: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    switch (flag) {
      case '--port':
        options.port = integer(flag, value, 65535);
        break;
      case '--control-port':
        options.controlPort = integer(flag, value, 65535);
        break;
      case '--data':
        if (!value) throw new Error('--data needs a directory');
        options.dataDir = value;
        break;
      case '--seed':
        if (!value || !(SEED_NAMES as readonly string[]).includes(value)) throw new Error(`--seed must be one of ${SEED_NAMES.join(', ')}`);
        options.seed = value as SeedName;
        break;
      case '--vouchers':
        options.vouchers = integer(flag, value, 1_000_000);
        break;
      case '--load':
        if (!value) throw new Error('--load needs a TallyPrime XML file');
        options.load.push({ file: path.resolve(baseDir, value) });
        break;
      case '--load-as': {
        const last = options.load[options.load.length - 1];
        if (!value || !last || last.name !== undefined) throw new Error('--load-as needs a company name and follows a --load');
        last.name = value;
        break;
      }
      case '--host':
        if (!value) throw new Error('--host needs a host name');
        options.host = value;
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
    i += 1;
  }
  return { ...options, dataDir: path.resolve(baseDir, options.dataDir) };
}
