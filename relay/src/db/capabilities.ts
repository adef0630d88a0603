// Every difference between SQLite and PostgreSQL that the relay's SQL cares about, in one table.
// Repositories branch on a capability, never on the dialect's name.

export type DialectCapabilities = Readonly<{
  dialect: 'sqlite' | 'postgres';
  /** `FOR UPDATE SKIP LOCKED` exists; without it, claims rely on the single-writer lock (SQLite). */
  skipLocked: boolean;
  /** `LISTEN/NOTIFY` can wake other relay processes. */
  notify: boolean;
  /** Several relay processes may share this database, so counters and presence must live in it. */
  sharedAcrossProcesses: boolean;
  /**
   * How concurrent migration runs are serialised: PostgreSQL holds an advisory lock for the whole
   * run; SQLite runs it in one `BEGIN IMMEDIATE` transaction (its single write lock).
   */
  migrationSerialisation: 'advisory-lock' | 'immediate-transaction';
  /**
   * JSON kept in a text column is read with `->>` as it is (SQLite), or only after a cast to jsonb
   * (PostgreSQL, where `->>` is defined on json types only).
   */
  jsonTextNeedsCast: boolean;
  /**
   * An INSERT may sit in a WITH clause and feed another (PostgreSQL's data-modifying CTEs): rows of
   * two tables written by one statement, atomic without BEGIN and COMMIT round trips.
   */
  writableCtes: boolean;
  /**
   * A statement run on its own may let its commit skip the wait for the WAL flush (PostgreSQL's
   * synchronous_commit, set for that one transaction with set_config): the counts of short rate-limit
   * windows, which a database crash may forget, as a restart forgets SQLite's in-memory ones.
   */
  commitsWithoutFlushWait: boolean;
}>;

export const sqliteCapabilities: DialectCapabilities = Object.freeze({
  dialect: 'sqlite',
  skipLocked: false,
  notify: false,
  sharedAcrossProcesses: false,
  migrationSerialisation: 'immediate-transaction',
  jsonTextNeedsCast: false,
  writableCtes: false,
  commitsWithoutFlushWait: false,
});

export const postgresCapabilities: DialectCapabilities = Object.freeze({
  dialect: 'postgres',
  skipLocked: true,
  notify: true,
  sharedAcrossProcesses: true,
  migrationSerialisation: 'advisory-lock',
  jsonTextNeedsCast: true,
  writableCtes: true,
  commitsWithoutFlushWait: true,
});
