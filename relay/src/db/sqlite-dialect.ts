// The relay's embedded SQLite as a Kysely dialect: statements run on the event loop (better-sqlite3
// is synchronous; each of the relay's statements takes microseconds, and a prepared statement is kept
// per SQL text), while everything that waits on the disk or on another connection stays off it:
//  - WAL checkpoints (writing the WAL back into the database file and syncing it) run on a thread of
//    their own (sqlite-checkpoint-thread.ts): automatic checkpoints are off on this connection, which
//    pokes the thread every CHECKPOINT_EVERY statements that end outside a transaction, and runs a
//    RESTART between two transactions when the thread finds the WAL past its limit all the same;
//  - commits do not sync (synchronous = NORMAL in WAL mode: a crash of the process loses nothing, the
//    WAL is synced at each checkpoint);
//  - a lock held by another connection (the admin CLI's, a test's second handle) is waited for with
//    timers, not in SQLite's busy handler, which would sleep on the event loop while the holder —
//    perhaps on this very loop — could never finish: this connection's busy_timeout is 0, and a
//    statement SQLite answers SQLITE_BUSY (it changed nothing) is run again, for up to BUSY_WAIT_MS.
// Kysely sees one connection behind a mutex, as with its own SQLite driver, so transactions, their
// order and SQLite's single-writer semantics are those of a single connection.
//
// Statements used to run on a worker thread of their own. On a virtual machine of two cores a round
// trip to a thread cost 130–185 µs of CPU whenever the thread had gone idle (bench: a thread
// answering one message at a time), more than the statements themselves; on the event loop the send
// path took 454 µs of CPU a request instead of 631, and 670 µs instead of 1,107 at half load.
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { SqliteCheckpointThread, type SqliteCheckpoint } from './sqlite-checkpoint-thread.js';

export type { SqliteCheckpoint } from './sqlite-checkpoint-thread.js';

export type EmbeddedSqliteOptions = Readonly<{
  file: string;
  /** Run in order on the statements connection as it opens (`journal_mode = WAL`, …). */
  pragmas: readonly string[];
  /** How long a statement waits, at most, for a lock another connection holds (ms). */
  busyWaitMs: number;
  /** Told when the checkpoint thread fails; SQLite's automatic checkpoints are turned back on then. */
  onCheckpointFailure?: (error: Error) => void;
  /** Told after each checkpoint: frames in the WAL, and how many of them are in the database file now. */
  onCheckpoint?: (checkpoint: SqliteCheckpoint) => void;
}>;

const STATEMENT_CACHE_SIZE = 500;
/** Statements ending outside a transaction between two pokes of the checkpoint thread. */
const CHECKPOINT_EVERY = 64;
/** What SQLite's automatic checkpoint uses by default (pages); back on when the checkpoint thread is gone. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** The first wait for a lock (ms); each further one doubles, up to MAX_BUSY_RETRY_MS. */
const FIRST_BUSY_RETRY_MS = 1;
const MAX_BUSY_RETRY_MS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** SQLITE_BUSY proper: a lock was not free and nothing was done (not SQLITE_BUSY_SNAPSHOT, which waiting cannot cure). */
function isBusy(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_BUSY';
}

class EmbeddedSqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, SQLite.Statement>();
  private endedSinceCheckpoint = 0;
  private restartWanted = false;
  /** The checkpoint thread, while it runs; automatic checkpoints are off only then. */
  checkpoints: SqliteCheckpointThread | undefined;

  constructor(
    private readonly db: SQLite.Database,
    private readonly options: EmbeddedSqliteOptions,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    let waitedMs = 0;
    for (let retryMs = FIRST_BUSY_RETRY_MS; ; retryMs = Math.min(2 * retryMs, MAX_BUSY_RETRY_MS)) {
      try {
        const result = this.run<R>(compiledQuery);
        this.statementEnded();
        return result;
      } catch (error) {
        if (!isBusy(error) || waitedMs >= this.options.busyWaitMs) throw error;
        await sleep(retryMs);
        waitedMs += retryMs;
      }
    }
  }

  /** Rows come over whole (the relay streams nothing big from SQLite); handed on one at a time, as Kysely's own driver does. */
  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (const row of rows) yield { rows: [row] };
  }

  /** The thread found the WAL still long after a passive checkpoint: RESTART it between two transactions. */
  wantRestart(): void {
    if (!this.db.open) return; // closed meanwhile: its close checkpoints the WAL anyway
    this.restartWanted = true;
    if (!this.db.inTransaction) this.restart();
  }

  /** The thread is gone: SQLite checkpoints on this connection again, as it does by default. */
  checkpointsFailed(error: Error): void {
    if (!this.checkpoints) return;
    this.checkpoints = undefined;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    this.options.onCheckpointFailure?.(error);
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }

  private run<R>(compiledQuery: CompiledQuery): QueryResult<R> {
    const statement = this.prepared(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  private prepared(sql: string): SQLite.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value ?? '');
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private statementEnded(): void {
    if (!this.checkpoints || this.db.inTransaction) return;
    if (this.restartWanted) this.restart();
    if (++this.endedSinceCheckpoint >= CHECKPOINT_EVERY) {
      this.endedSinceCheckpoint = 0;
      this.checkpoints.poke();
    }
  }

  /**
   * A RESTART checkpoint, which does not wait (busy_timeout is 0 here): when a reader or the thread's
   * own checkpoint is in the way it reports busy, and the thread asks again after its next checkpoint.
   */
  private restart(): void {
    this.restartWanted = false;
    try {
      const [result] = this.db.pragma('wal_checkpoint(RESTART)') as { busy: number; log: number; checkpointed: number }[];
      if (result && result.busy === 0) this.options.onCheckpoint?.({ mode: 'restart', walFrames: result.log, checkpointedFrames: result.checkpointed });
    } catch (error) {
      this.checkpointsFailed(error instanceof Error ? error : new Error(String(error)));
    }
  }

}

/** Kysely's connection mutex, as its SQLite driver has: one statement or transaction at a time. */
class ConnectionMutex {
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise<void>((resolve) => (this.release = resolve));
  }

  unlock(): void {
    const release = this.release;
    this.held = undefined;
    this.release = undefined;
    release?.();
  }
}

class EmbeddedSqliteDriver implements Driver {
  private readonly mutex = new ConnectionMutex();
  private connection: EmbeddedSqliteConnection | undefined;
  private checkpoints: SqliteCheckpointThread | undefined;

  constructor(private readonly options: EmbeddedSqliteOptions) {}

  async init(): Promise<void> {
    // The statements connection first: it creates the file and puts it in WAL mode.
    const db = new SQLite(this.options.file);
    for (const pragma of this.options.pragmas) db.pragma(pragma);
    db.pragma('busy_timeout = 0');
    const connection = new EmbeddedSqliteConnection(db, this.options);
    this.connection = connection;
    const checkpoints = new SqliteCheckpointThread(this.options.file, [`busy_timeout = ${this.options.busyWaitMs}`], {
      checkpointed: (checkpoint) => this.options.onCheckpoint?.(checkpoint),
      restartWanted: () => connection.wantRestart(),
      failed: (error) => connection.checkpointsFailed(error),
    });
    this.checkpoints = checkpoints;
    try {
      await checkpoints.ready();
      db.pragma('wal_autocheckpoint = 0');
      connection.checkpoints = checkpoints;
    } catch (error) {
      // Without the thread this connection checkpoints by itself, as SQLite does by default.
      this.options.onCheckpointFailure?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    if (!this.connection) throw new Error('the SQLite driver is not initialised');
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }

  async destroy(): Promise<void> {
    // The statements connection closes first, so the checkpoint thread's close is the last one: it
    // writes the WAL back and removes it.
    this.connection?.close();
    await this.checkpoints?.close();
  }
}

export class EmbeddedSqliteDialect implements Dialect {
  constructor(private readonly options: EmbeddedSqliteOptions) {}

  createDriver(): Driver {
    return new EmbeddedSqliteDriver(this.options);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
