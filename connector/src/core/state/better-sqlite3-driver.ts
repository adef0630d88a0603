// better-sqlite3 under the SqliteConnection the stores use: the driver on Node 20, which has no
// node:sqlite (the development machines, the CLI under tsx, the Electron shell's package). It is a
// native addon, so it is loaded only when chosen, synchronously, with require: a bundle that leaves it
// out (esbuild's `external: ['better-sqlite3']`) never loads it while node:sqlite serves.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { DriverConnection } from './driver-connection.js';
import { DEFAULT_BUSY_TIMEOUT_MS, type OpenSqliteOptions, type SqliteConnection, type SqliteValue } from './sqlite-connection.js';

type BetterSqlite3Constructor = typeof BetterSqlite3;

let constructor: BetterSqlite3Constructor | undefined;

export function openBetterSqlite3(file: string, options: OpenSqliteOptions = {}): SqliteConnection {
  const Database = loadBetterSqlite3();
  const readOnly = options.readOnly ?? false;
  const db = new Database(file, { readonly: readOnly, fileMustExist: readOnly, timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
  return new DriverConnection('better-sqlite3', {
    // Positional parameters only (the stores bind with ?), hence the narrower element type.
    prepare: (sql) => db.prepare<SqliteValue[]>(sql),
    exec: (sql) => void db.exec(sql),
    pragma: (statement) => db.pragma(statement, { simple: true }),
    get isOpen() {
      return db.open;
    },
    get inTransaction() {
      return db.inTransaction;
    },
    close: () => void db.close(),
  });
}

function loadBetterSqlite3(): BetterSqlite3Constructor {
  if (constructor) return constructor;
  // In ESM (tsx, Vitest, an ESM bundle) a require is made from this module's URL. In a CommonJS bundle
  // esbuild leaves import.meta empty, and the bundle's own require resolves the package beside it.
  const requireHere = import.meta.url ? createRequire(import.meta.url) : require;
  try {
    constructor = requireHere('better-sqlite3') as BetterSqlite3Constructor;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(
      `The better-sqlite3 SQLite driver could not be loaded (${reason}). Packages built for Windows do not carry it: ` +
        'leave LEDGERWIRE_SQLITE_DRIVER unset (auto) or set it to node on Node 22.16 or later.',
      { cause: error },
    );
  }
  return constructor;
}
