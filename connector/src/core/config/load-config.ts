// The connector's one configuration module: defaults, then the environment, then what the caller
// passes (CLI flags, the Electron shell), validated once and frozen. Nothing else reads process.env.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SQLITE_DRIVER_CHOICES, type SqliteDriverChoice } from '../state/sqlite-connection.js';

export const DEFAULT_BOOKS_URL = 'http://127.0.0.1:9000';

/**
 * Where a desktop program keeps its data on each platform, as the platform's conventions say. On
 * Windows the local (not roaming) application data: the connector's credential and its exactly-once
 * state belong to this PC, and a roaming profile would copy them to another.
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'win32') return path.win32.join(env.LOCALAPPDATA ?? path.win32.join(home, 'AppData', 'Local'), 'Ledgerwire');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Ledgerwire');
  const xdg = env.XDG_DATA_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share'), 'ledgerwire');
}

/**
 * The books' address as a person may type it: a full URL, or the other computer's name or IP address
 * alone ("192.168.1.20", "accounts-pc:9000"), which means TallyPrime's usual http and port 9000.
 */
export function booksUrlFrom(input: string): string {
  const typed = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `http://${typed}`;
  if (!URL.canParse(withScheme)) throw new Error(`"${input}" is not an address of TallyPrime; give one like ${DEFAULT_BOOKS_URL} or 192.168.1.20`);
  const url = new URL(withScheme);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`books URL "${input}" must start with http:// (e.g. ${DEFAULT_BOOKS_URL})`);
  if (url.hostname === '') throw new Error(`"${input}" names no computer; give one like ${DEFAULT_BOOKS_URL} or 192.168.1.20`);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(typed) && url.port === '') url.port = '9000';
  url.hash = '';
  return url.toString().replace(/\/$/, '');
}

const millis = (fallback: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number of milliseconds').transform(Number).default(fallback);
const count = (fallback: number) =>
  z.string().regex(/^[1-9]\d*$/, 'must be a whole number above 0').transform(Number).default(fallback);

const envSchema = z.object({
  LEDGERWIRE_DATA_DIR: z.string().trim().min(1).optional(),
  LEDGERWIRE_BOOKS_URL: z.url({ message: 'must be a URL such as http://127.0.0.1:9000' }).optional(),
  LEDGERWIRE_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** A program to open the local page with instead of the system's default browser (like BROWSER). */
  LEDGERWIRE_BROWSER: z.string().trim().min(1).optional(),
  /** How long one books request may take before the connector stops waiting for it. */
  LEDGERWIRE_BOOKS_TIMEOUT_MS: millis(120_000),
  /** How often the books are probed for running / companies open (and changes to sync). */
  LEDGERWIRE_PRESENCE_INTERVAL_MS: millis(5_000),
  /** How long books that stopped must stay stopped before the relay hears it (books.stopped). */
  LEDGERWIRE_BOOKS_STOP_CONFIRM_MS: millis(5_000),
  /** How often a sync pass runs (a pass with nothing changed costs one probe). */
  LEDGERWIRE_SYNC_INTERVAL_MS: millis(30_000),
  /** Every n-th sync pass also looks for deletions by a GUID diff (a full GUID read). */
  LEDGERWIRE_DELETION_CHECK_EVERY: count(20),
  /** Consecutive jobs of one company imported in one request at most. */
  LEDGERWIRE_IMPORT_BATCH: count(200),
  /** Vouchers per date window of a sync export, and per sync.batch message. */
  LEDGERWIRE_SYNC_WINDOW_VOUCHERS: count(5_000),
  LEDGERWIRE_SYNC_BATCH_ITEMS: count(500),
  LEDGERWIRE_RECONNECT_BASE_MS: millis(500),
  LEDGERWIRE_RECONNECT_CAP_MS: millis(30_000),
  /** The local store's SQLite driver: node:sqlite where this Node has it, else better-sqlite3 (auto). */
  LEDGERWIRE_SQLITE_DRIVER: z.enum(SQLITE_DRIVER_CHOICES, { message: `must be one of ${SQLITE_DRIVER_CHOICES.join(', ')}` }).default('auto'),
});

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export type ConnectorConfig = Readonly<{
  dataDir: string;
  /** Null: take the books URL stored at enrolment (or the default). */
  booksUrl: string | null;
  logLevel: LogLevel;
  /** Null: the system's default browser opens the local page. */
  browser: string | null;
  booksTimeoutMs: number;
  presenceIntervalMs: number;
  booksStopConfirmMs: number;
  syncIntervalMs: number;
  deletionCheckEvery: number;
  importBatch: number;
  syncWindowVouchers: number;
  syncBatchItems: number;
  reconnectBaseMs: number;
  reconnectCapMs: number;
  sqliteDriver: SqliteDriverChoice;
}>;

export class ConnectorConfigError extends Error {}

export type ConfigOverrides = Partial<Omit<ConnectorConfig, 'dataDir' | 'booksUrl'>> & {
  dataDir?: string | undefined;
  booksUrl?: string | undefined;
};

/**
 * Where a relative --data (or LEDGERWIRE_DATA_DIR) is taken from: the directory the command was typed
 * in. `npm run connector` runs inside connector/, but npm names the caller's directory in INIT_CWD.
 */
function invocationDir(env: Readonly<Record<string, string | undefined>>): string {
  const initCwd = env['INIT_CWD'];
  return initCwd !== undefined && path.isAbsolute(initCwd) ? initCwd : process.cwd();
}

/**
 * The code for `connector enroll` (a customer token or a connect link's setup code) from
 * LEDGERWIRE_ENROL_CODE, so an installer or a script need not put it on a command line, where other
 * programs of the computer can read it.
 */
export function enrolmentCodeFromEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const code = env['LEDGERWIRE_ENROL_CODE']?.trim();
  return code === '' ? undefined : code;
}

/** Reads the environment once; `overrides` (flags, options) win over it. */
export function loadConnectorConfig(
  overrides: ConfigOverrides = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): ConnectorConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConnectorConfigError(`${issue?.path.join('.') ?? 'environment'}: ${issue?.message ?? 'invalid'}`);
  }
  const e = parsed.data;
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as ConfigOverrides;
  const given = defined.booksUrl ?? e.LEDGERWIRE_BOOKS_URL;
  let booksUrl: string | null = null;
  try {
    booksUrl = given === undefined ? null : booksUrlFrom(given);
  } catch (error) {
    throw new ConnectorConfigError(error instanceof Error ? error.message : String(error));
  }
  return Object.freeze({
    logLevel: e.LEDGERWIRE_LOG_LEVEL,
    browser: e.LEDGERWIRE_BROWSER ?? null,
    booksTimeoutMs: e.LEDGERWIRE_BOOKS_TIMEOUT_MS,
    presenceIntervalMs: e.LEDGERWIRE_PRESENCE_INTERVAL_MS,
    booksStopConfirmMs: e.LEDGERWIRE_BOOKS_STOP_CONFIRM_MS,
    syncIntervalMs: e.LEDGERWIRE_SYNC_INTERVAL_MS,
    deletionCheckEvery: e.LEDGERWIRE_DELETION_CHECK_EVERY,
    importBatch: e.LEDGERWIRE_IMPORT_BATCH,
    syncWindowVouchers: e.LEDGERWIRE_SYNC_WINDOW_VOUCHERS,
    syncBatchItems: e.LEDGERWIRE_SYNC_BATCH_ITEMS,
    reconnectBaseMs: e.LEDGERWIRE_RECONNECT_BASE_MS,
    reconnectCapMs: e.LEDGERWIRE_RECONNECT_CAP_MS,
    sqliteDriver: e.LEDGERWIRE_SQLITE_DRIVER,
    ...defined,
    dataDir: path.resolve(invocationDir(env), defined.dataDir ?? e.LEDGERWIRE_DATA_DIR ?? defaultDataDir()),
    booksUrl,
  });
}
