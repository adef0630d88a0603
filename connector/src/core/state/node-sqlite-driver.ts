// Node's built-in SQLite (node:sqlite, DatabaseSync) under the SqliteConnection the stores use: what the
// connector's Windows package runs on (its pinned Node 22.23.3 carries no native addon). It needs
// StatementSync#iterate (Node 22.13) and DatabaseSync#isTransaction and the busy `timeout` option (Node
// 22.16); an older node:sqlite, or a Node without one (Node 20), is reported as unusable and `auto`
// takes better-sqlite3 there. Integers come back as numbers (readBigInts stays off, as better-sqlite3's
// safeIntegers does), and rows are objects without a prototype.
import { DriverConnection, type NativeStatement } from './driver-connection.js';
import { DEFAULT_BUSY_TIMEOUT_MS, type OpenSqliteOptions, type SqliteConnection } from './sqlite-connection.js';

/** The part of node:sqlite used here (@types/node 20 does not describe the module). */
type NodeSqliteModule = Readonly<{
  DatabaseSync: new (file: string, options?: Readonly<{ readOnly?: boolean; timeout?: number }>) => DatabaseSync;
  StatementSync: Readonly<{ prototype: Partial<Record<'iterate', unknown>> }>;
}>;

type DatabaseSync = {
  readonly isOpen?: boolean;
  readonly isTransaction?: boolean;
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  close(): void;
};

type Loaded = Readonly<{ sqlite: NodeSqliteModule; problem?: undefined } | { sqlite?: undefined; problem: string }>;

let loaded: Loaded | undefined;

/** Why this Node's node:sqlite cannot carry the local store, or undefined when it can. */
export function nodeSqliteProblem(): string | undefined {
  return loadNodeSqlite().problem;
}

export function openNodeSqlite(file: string, options: OpenSqliteOptions = {}): SqliteConnection {
  const { sqlite, problem } = loadNodeSqlite();
  if (!sqlite) throw new Error(problem);
  const db = new sqlite.DatabaseSync(file, { readOnly: options.readOnly ?? false, timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
  return new DriverConnection('node', {
    prepare: (sql) => db.prepare(sql),
    exec: (sql) => db.exec(sql),
    pragma: (statement) => {
      const row = db.prepare(`PRAGMA ${statement}`).get() as Record<string, unknown> | undefined;
      return row === undefined ? undefined : Object.values(row)[0];
    },
    get isOpen() {
      return db.isOpen === true;
    },
    get inTransaction() {
      return db.isTransaction === true;
    },
    close: () => db.close(),
  });
}

function loadNodeSqlite(): Loaded {
  loaded ??= check(withoutSqliteWarning(() => process.getBuiltinModule('node:sqlite')) as NodeSqliteModule | undefined);
  return loaded;
}

function check(sqlite: NodeSqliteModule | undefined): Loaded {
  const needs = `needs Node's built-in SQLite as of Node 22.16 (node:sqlite with iterate, isTransaction and a busy timeout); this is Node ${process.version}`;
  if (!sqlite) return { problem: `The node SQLite driver ${needs}, which has no node:sqlite` };
  if (typeof sqlite.StatementSync.prototype.iterate !== 'function') return { problem: `The node SQLite driver ${needs}` };
  const probe = new sqlite.DatabaseSync(':memory:');
  try {
    if (!('isTransaction' in probe) || !('isOpen' in probe)) return { problem: `The node SQLite driver ${needs}` };
  } finally {
    probe.close();
  }
  return { sqlite };
}

/**
 * Node 22 prints "ExperimentalWarning: SQLite is an experimental feature…" to stderr when node:sqlite
 * first loads. The connector's runtime is pinned and its store's suite runs on that runtime, so the
 * line tells a person reading the CLI's output (or the connector's log) nothing they can act on: it is
 * held back while this synchronous load runs, and every other warning goes through as before. (The
 * Windows launcher also passes --disable-warning=ExperimentalWarning.)
 */
function withoutSqliteWarning<T>(load: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function emitUnlessSqliteExperimental(this: unknown, warning: string | Error, ...rest: unknown[]): void {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && text.startsWith('SQLite is an experimental feature')) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emitWarning;
  }
}
