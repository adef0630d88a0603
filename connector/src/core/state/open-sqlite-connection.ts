// Which SQLite driver opens a connection: the configured one (LEDGERWIRE_SQLITE_DRIVER, see
// load-config.ts), or with 'auto' node:sqlite where the running Node has a usable one (the Windows
// package's Node 22.23.3, a developer's Node 22.16+) and better-sqlite3 elsewhere (Node 20). Neither
// driver is loaded before a connection asks for it.
import { openBetterSqlite3 } from './better-sqlite3-driver.js';
import { nodeSqliteProblem, openNodeSqlite } from './node-sqlite-driver.js';
import type { OpenSqliteOptions, SqliteConnection, SqliteDriverChoice, SqliteDriverName } from './sqlite-connection.js';

export function resolveSqliteDriver(choice: SqliteDriverChoice): SqliteDriverName {
  if (choice !== 'auto') return choice;
  return nodeSqliteProblem() === undefined ? 'node' : 'better-sqlite3';
}

export function openSqliteConnection(file: string, driver: SqliteDriverChoice, options: OpenSqliteOptions = {}): SqliteConnection {
  return resolveSqliteDriver(driver) === 'node' ? openNodeSqlite(file, options) : openBetterSqlite3(file, options);
}
