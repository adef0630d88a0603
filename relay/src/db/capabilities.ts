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
  /** Migrations must be serialised with an advisory lock (PostgreSQL); SQLite's file lock does it already. */
  advisoryLock: boolean;
}>;

export const sqliteCapabilities: DialectCapabilities = Object.freeze({
  dialect: 'sqlite',
  skipLocked: false,
  notify: false,
  sharedAcrossProcesses: false,
  advisoryLock: false,
});

export const postgresCapabilities: DialectCapabilities = Object.freeze({
  dialect: 'postgres',
  skipLocked: true,
  notify: true,
  sharedAcrossProcesses: true,
  advisoryLock: true,
});
