// The relay's embedded SQLite, run off the event loop: a Kysely dialect whose one connection lives on
// a worker thread (better-sqlite3 is synchronous, so on the main thread every statement, every commit's
// WAL write and every checkpoint's sync would stop the HTTP server and the connector gateway while it
// ran). A second thread runs the WAL checkpoints on a connection of its own (sqlite-thread-source.ts).
//
// Kysely still sees one connection behind a mutex, as with its own SQLite driver, so transactions,
// their order and SQLite's single-writer semantics are unchanged; each statement is a message to the
// thread and its answer a message back. Errors keep their name, message and SQLite code (`code` is
// what isUniqueViolation and the migration lock read). kysely-sqlite-worker does the same in principle,
// but is built for Kysely 0.26 and drops errors' codes and the statement cache, so this is our own.
import { createRequire } from 'node:module';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
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
import { SQLITE_THREAD_SOURCE } from './sqlite-thread-source.js';

export type SqliteThreadOptions = Readonly<{
  file: string;
  /** Run in order on the statements connection as it opens (`journal_mode = WAL`, …). */
  pragmas: readonly string[];
  /** Told when a checkpoint fails; SQLite's automatic checkpoints are turned back on then. */
  onCheckpointFailure?: (error: Error) => void;
  /** Told after each checkpoint the thread ran: frames in the WAL, and how many of them are in the database file now. */
  onCheckpoint?: (checkpoint: SqliteCheckpoint) => void;
}>;

export type SqliteCheckpoint = Readonly<{ mode: 'passive' | 'restart'; walFrames: number; checkpointedFrames: number }>;

type DescribedError = Readonly<{ name: string; message: string; code?: string }>;
type Reply = Readonly<{ id: number; rows?: unknown[]; changes?: number; lastInsertRowid?: number | bigint; error?: DescribedError }>;
type Event = Readonly<{ kind: 'ready' | 'failed' | 'closed' | 'checkpoint-failed' | 'checkpointed'; error?: DescribedError } & Partial<SqliteCheckpoint>>;
type Waiter = Readonly<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }>;

/** What SQLite's automatic checkpoint uses by default (pages); back on when the checkpoint thread is gone. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

function errorFrom(described: DescribedError): Error {
  const error = described.name === 'TypeError' ? new TypeError(described.message) : described.name === 'RangeError' ? new RangeError(described.message) : new Error(described.message);
  if (error.name !== described.name) error.name = described.name;
  if (described.code !== undefined) Object.assign(error, { code: described.code });
  return error;
}

/**
 * One thread of the two. It keeps the process alive only while a request to it is unanswered, as a
 * database call on the main thread would: idle, it must not hold a finished process open.
 */
class SqliteThread {
  private readonly worker: Worker;
  /** The thread answers in the order it was asked. */
  private readonly waiting: Waiter[] = [];
  private nextId = 1;
  private stopped: Error | undefined;
  private readonly opened: Promise<void>;
  private closing: Promise<void> | undefined;

  constructor(
    data: Readonly<{ role: 'statements' | 'checkpoints'; file: string; pragmas: readonly string[]; port: MessagePort }>,
    private readonly onEvent: (event: Event) => void = () => undefined,
  ) {
    const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(SQLITE_THREAD_SOURCE, { eval: true, workerData: { ...data, driverPath }, transferList: [data.port] });
    this.opened = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: Reply | Event) => {
        if ('id' in message) return this.answer(message);
        if (message.kind === 'ready') {
          if (this.waiting.length === 0) this.worker.unref();
          resolve();
        }
        else if (message.kind === 'failed') reject(errorFrom(message.error ?? { name: 'Error', message: 'SQLite could not be opened' }));
        this.onEvent(message);
      });
      this.worker.on('error', (error) => {
        reject(error);
        this.stop(error);
      });
      this.worker.on('exit', (code) => {
        const error = new Error(`the SQLite ${data.role} thread stopped (exit code ${code})`);
        reject(error);
        this.stop(error);
      });
    });
  }

  ready(): Promise<void> {
    return this.opened;
  }

  /** `begin`: run BEGIN first, in the same message. */
  query(sql: string, parameters: readonly unknown[], begin = false): Promise<Reply> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise<Reply>((resolve, reject) => {
      if (this.waiting.push({ resolve, reject }) === 1) this.worker.ref();
      this.worker.postMessage({ kind: 'query', id: this.nextId++, sql, parameters, begin });
    });
  }

  /** A message that is not answered (a setting for the thread). */
  tell(message: Readonly<Record<string, unknown>>): void {
    if (!this.stopped) this.worker.postMessage(message);
  }

  /** Closes the connection on the thread (SQLite's last close checkpoints the WAL) and lets the thread end. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.stopped) return resolve();
      this.worker.ref();
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ kind: 'close' });
    });
    return this.closing;
  }

  private answer(reply: Reply): void {
    const waiter = this.waiting.shift();
    if (this.waiting.length === 0) this.worker.unref();
    if (!waiter) return;
    if (reply.error) waiter.reject(errorFrom(reply.error));
    else waiter.resolve(reply);
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    const waiting = this.waiting.splice(0);
    for (const waiter of waiting) waiter.reject(error);
  }
}

/**
 * The one connection. A transaction's BEGIN is not sent on its own: it goes with the transaction's
 * first statement, so a transaction of n statements costs n + 1 round trips to the thread, not n + 2
 * (BEGIN, being DEFERRED, takes no lock and cannot fail on a lock; a failure would be that
 * statement's error).
 */
class SqliteThreadConnection implements DatabaseConnection {
  private beginPending = false;

  constructor(private readonly thread: SqliteThread) {}

  begin(): void {
    if (this.beginPending) throw new Error('a transaction is already beginning on this connection');
    this.beginPending = true;
  }

  /** Ends the transaction: COMMIT or ROLLBACK, or nothing when no statement ever began it. */
  async end(statement: 'commit' | 'rollback'): Promise<void> {
    if (this.beginPending) {
      this.beginPending = false;
      return;
    }
    await this.executeQuery(CompiledQuery.raw(statement));
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const begin = this.beginPending;
    this.beginPending = false;
    const reply = await this.thread.query(compiledQuery.sql, compiledQuery.parameters, begin);
    if (reply.rows) return { rows: reply.rows as R[] };
    return {
      numAffectedRows: reply.changes === undefined ? undefined : BigInt(reply.changes),
      insertId: reply.lastInsertRowid === undefined ? undefined : BigInt(reply.lastInsertRowid),
      rows: [],
    };
  }

  /** Rows come over whole (the relay streams nothing big from SQLite); handed on one at a time, as Kysely's own driver does. */
  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (const row of rows) yield { rows: [row] };
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

class SqliteThreadDriver implements Driver {
  private readonly mutex = new ConnectionMutex();
  private statements: SqliteThread | undefined;
  private checkpoints: SqliteThread | undefined;
  private connection: SqliteThreadConnection | undefined;

  constructor(private readonly options: SqliteThreadOptions) {}

  async init(): Promise<void> {
    const { port1, port2 } = new MessageChannel();
    // The statements connection first: it creates the file and puts it in WAL mode.
    const statements = new SqliteThread({ role: 'statements', file: this.options.file, pragmas: this.options.pragmas, port: port1 }, (event) => this.checkpointEvent(event));
    this.statements = statements;
    await statements.ready();
    this.connection = new SqliteThreadConnection(statements);
    const busyTimeout = this.options.pragmas.filter((pragma) => pragma.startsWith('busy_timeout'));
    const checkpoints = new SqliteThread({ role: 'checkpoints', file: this.options.file, pragmas: busyTimeout, port: port2 }, (event) => this.checkpointEvent(event));
    try {
      await checkpoints.ready();
      this.checkpoints = checkpoints;
      statements.tell({ kind: 'autocheckpoint', pages: 0 });
    } catch (error) {
      // Without the thread the statements connection checkpoints by itself, as SQLite does by default.
      this.options.onCheckpointFailure?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** A checkpoint done, or failed: then SQLite's automatic checkpoints take over again, on the statements connection. */
  private checkpointEvent(event: Event): void {
    if (event.kind === 'checkpointed') {
      this.options.onCheckpoint?.({ mode: event.mode ?? 'passive', walFrames: event.walFrames ?? 0, checkpointedFrames: event.checkpointedFrames ?? 0 });
    }
    if (event.kind !== 'checkpoint-failed') return;
    this.statements?.tell({ kind: 'autocheckpoint', pages: DEFAULT_AUTOCHECKPOINT_PAGES });
    this.options.onCheckpointFailure?.(errorFrom(event.error ?? { name: 'Error', message: 'checkpoint failed' }));
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    if (!this.connection) throw new Error('the SQLite driver is not initialised');
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as SqliteThreadConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as SqliteThreadConnection).end('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as SqliteThreadConnection).end('rollback');
  }

  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }

  async destroy(): Promise<void> {
    // The statements connection closes first, so the checkpoint thread's close is the last one: it
    // writes the WAL back and removes it.
    await this.statements?.close();
    await this.checkpoints?.close();
  }
}

export class SqliteThreadDialect implements Dialect {
  constructor(private readonly options: SqliteThreadOptions) {}

  createDriver(): Driver {
    return new SqliteThreadDriver(this.options);
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
