// The SQLite connection the connector's stores, run lock and backup use, whichever driver is under it:
// Node's built-in node:sqlite (the shipped Windows runtime has no native addon) or better-sqlite3 (Node
// 20, which has no node:sqlite). Both are synchronous and run the same SQL; what differs between them
// (transactions, pragmas, how an open iteration is noticed, error shapes) is settled once, in
// driver-connection.ts and the two driver files, so the stores see one behaviour.

/** A value SQLite can bind or return (neither driver binds booleans or undefined). */
export type SqliteValue = string | number | bigint | Uint8Array | null;

export type SqliteDriverName = 'node' | 'better-sqlite3';
/** 'auto': node:sqlite when the running Node has a usable one, else better-sqlite3. */
export type SqliteDriverChoice = SqliteDriverName | 'auto';
export const SQLITE_DRIVER_CHOICES = ['auto', 'node', 'better-sqlite3'] as const satisfies readonly SqliteDriverChoice[];

export type SqliteRunResult = Readonly<{ changes: number; lastInsertRowid: number | bigint }>;

export interface SqliteStatement {
  run(...params: SqliteValue[]): SqliteRunResult;
  /** The first row, or undefined when there is none. */
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
  /** Rows one at a time; the statement is busy until the iteration ends or is left (break, return). */
  iterate(...params: SqliteValue[]): IterableIterator<unknown>;
  /** True while an iteration over this statement is open: it cannot run again until that ends. */
  readonly busy: boolean;
}

export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  readonly isOpen: boolean;
  /** Compiles one statement (the local database keeps compiled ones: see keepPreparedStatements). */
  prepare(sql: string): SqliteStatement;
  /** Runs one or more statements, returning nothing. */
  exec(sql: string): void;
  /**
   * `PRAGMA <statement>`, e.g. 'user_version' or 'journal_mode = WAL': the first column of the first
   * row it answers (the value read, or the value set where SQLite reports one), else undefined.
   */
  pragma(statement: string): unknown;
  /**
   * Runs `fn` in a transaction and returns what it returns: committed when it returns, rolled back when
   * it throws (the error goes on). Nested inside another, it is a savepoint of that one. `fn` must be
   * synchronous: a promise is refused and the transaction rolled back.
   */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export type OpenSqliteOptions = Readonly<{
  /** Never writes, never creates the file: it must exist. */
  readOnly?: boolean;
  /** How long a statement waits for another connection's lock before failing busy (default 5000). */
  busyTimeoutMs?: number;
}>;

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/**
 * Whether an error says another connection holds the lock it needed (SQLITE_BUSY or SQLITE_LOCKED,
 * extended codes included). better-sqlite3 names the code ('SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT');
 * node:sqlite throws code 'ERR_SQLITE_ERROR' with SQLite's number in errcode.
 */
export function isSqliteLockError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    // The low byte of an extended result code is its primary code.
    const primary = errcode & 0xff;
    return primary === SQLITE_BUSY || primary === SQLITE_LOCKED;
  }
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}
