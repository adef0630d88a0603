// The one SqliteConnection implementation, over either driver's native connection reduced to what it
// needs (NativeSqlite). What the drivers would do differently is done here, once, for both:
// - Transactions: BEGIN / COMMIT / ROLLBACK, and a SAVEPOINT for one inside another. node:sqlite has
//   no transaction helper, and one implementation keeps both drivers' transactions alike.
// - Iterations: node:sqlite restarts an open iteration when its statement runs again (measured on
//   22.23.3), and better-sqlite3 refuses a write on a connection with an open iteration ("This database
//   connection is busy executing a query"). So on both, a statement being iterated refuses to run again
//   (the statement cache hands a second user a fresh one), and while any iteration is open only reads
//   (get, all, iterate) run: run, exec, pragma and transaction are refused, as better-sqlite3 does.
import type { SqliteConnection, SqliteDriverName, SqliteRunResult, SqliteStatement, SqliteValue } from './sqlite-connection.js';

export type NativeStatement = Readonly<{
  run(...params: SqliteValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
  iterate(...params: SqliteValue[]): Iterator<unknown>;
}>;

export type NativeSqlite = Readonly<{
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  /** PRAGMA <statement>: the first column of the first row, or undefined. */
  pragma(statement: string): unknown;
  readonly isOpen: boolean;
  /** SQLite is inside a transaction (false again once SQLite rolled one back by itself, e.g. on SQLITE_FULL). */
  readonly inTransaction: boolean;
  close(): void;
}>;

export class DriverConnection implements SqliteConnection {
  private transactionDepth = 0;
  /** Iterations not yet ended or left, over all of this connection's statements. */
  openIterations = 0;

  constructor(readonly driver: SqliteDriverName, private readonly native: NativeSqlite) {}

  get isOpen(): boolean {
    return this.native.isOpen;
  }

  prepare(sql: string): SqliteStatement {
    return new DriverStatement(this, this.native.prepare(sql));
  }

  exec(sql: string): void {
    this.assertNotIterating('exec');
    this.native.exec(sql);
  }

  pragma(statement: string): unknown {
    this.assertNotIterating('pragma');
    return this.native.pragma(statement);
  }

  transaction<T>(fn: () => T): T {
    this.assertNotIterating('transaction');
    const savepoint = this.transactionDepth === 0 ? undefined : `ledgerwire_${this.transactionDepth}`;
    this.native.exec(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
    this.transactionDepth += 1;
    try {
      const result = fn();
      if (result instanceof Promise) {
        void result.catch(() => undefined);
        throw new TypeError('A transaction function must be synchronous: what it awaits would run after the commit');
      }
      this.native.exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
      return result;
    } catch (error) {
      this.rollBack(savepoint, error);
      throw error;
    } finally {
      this.transactionDepth -= 1;
    }
  }

  /** After SQLITE_FULL, IOERR and a few others SQLite has already rolled the whole transaction back. */
  private rollBack(savepoint: string | undefined, cause: unknown): void {
    if (!this.native.isOpen || !this.native.inTransaction) return;
    try {
      this.native.exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
    } catch (rollbackError) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new Error(`Rolling back after "${reason}" failed: ${rollbackError instanceof Error ? rollbackError.message : String(rollbackError)}`, { cause });
    }
  }

  close(): void {
    if (this.native.isOpen) this.native.close();
  }

  assertNotIterating(what: string): void {
    if (this.openIterations > 0) {
      throw new TypeError(`This SQLite connection has an iteration open, so ${what} cannot run now: finish or leave the iteration first`);
    }
  }
}

class DriverStatement implements SqliteStatement {
  /** The iteration open over this statement, if any (an ended one no longer matches). */
  private iteration: object | undefined;

  constructor(private readonly connection: DriverConnection, private readonly native: NativeStatement) {}

  get busy(): boolean {
    return this.iteration !== undefined;
  }

  run(...params: SqliteValue[]): SqliteRunResult {
    this.assertIdle();
    this.connection.assertNotIterating('a statement run');
    const result = this.native.run(...params);
    return { changes: Number(result.changes), lastInsertRowid: result.lastInsertRowid };
  }

  get(...params: SqliteValue[]): unknown {
    this.assertIdle();
    return this.native.get(...params);
  }

  all(...params: SqliteValue[]): unknown[] {
    this.assertIdle();
    return this.native.all(...params);
  }

  iterate(...params: SqliteValue[]): IterableIterator<unknown> {
    this.assertIdle();
    const rows = this.native.iterate(...params);
    const iteration = {};
    this.iteration = iteration;
    this.connection.openIterations += 1;
    const end = (): boolean => {
      if (this.iteration !== iteration) return false;
      this.iteration = undefined;
      this.connection.openIterations -= 1;
      return true;
    };
    const iterator: IterableIterator<unknown> = {
      next: () => {
        if (this.iteration !== iteration) return { done: true, value: undefined };
        try {
          const step = rows.next();
          if (step.done) end();
          return step;
        } catch (error) {
          end();
          throw error;
        }
      },
      return: (value?: unknown) => {
        if (end()) rows.return?.();
        return { done: true, value };
      },
      [Symbol.iterator]: () => iterator,
    };
    return iterator;
  }

  private assertIdle(): void {
    if (this.iteration !== undefined) {
      throw new TypeError('This statement is being iterated: it can run again once that iteration ends (prepare another meanwhile)');
    }
  }
}
