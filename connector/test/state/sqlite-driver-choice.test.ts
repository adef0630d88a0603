// Which SQLite driver the connector opens its store on: LEDGERWIRE_SQLITE_DRIVER names one, and 'auto'
// takes node:sqlite exactly on a Node that has a usable one (22.16 and later), better-sqlite3 elsewhere.
// A driver the running Node cannot give, or a name the connector does not know, is refused in words.
import { describe, expect, it } from 'vitest';
import { ConnectorConfigError, loadConnectorConfig } from '../../src/core/config/load-config.js';
import { nodeSqliteProblem } from '../../src/core/state/node-sqlite-driver.js';
import { openSqliteConnection, resolveSqliteDriver } from '../../src/core/state/open-sqlite-connection.js';
import { driversUnderTest } from './store-drivers.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const nodeSqliteUsable = major > 22 || (major === 22 && minor >= 16);

describe.each(driversUnderTest())('driver choice on %s', (driver) => {
  it('opens on the driver LEDGERWIRE_SQLITE_DRIVER names, and auto takes node:sqlite exactly from Node 22.16', () => {
    expect(loadConnectorConfig({}, {}).sqliteDriver).toBe('auto');
    const chosen = loadConnectorConfig({}, { LEDGERWIRE_SQLITE_DRIVER: driver }).sqliteDriver;
    const db = openSqliteConnection(':memory:', chosen);
    try {
      expect(db.driver).toBe(driver);
      expect(db.prepare('SELECT 40 + 2 AS answer').get()).toEqual({ answer: 42 });
    } finally {
      db.close();
    }
    expect(db.isOpen).toBe(false);
    expect(resolveSqliteDriver('auto')).toBe(nodeSqliteUsable ? 'node' : 'better-sqlite3');
    expect(nodeSqliteProblem() === undefined).toBe(nodeSqliteUsable);
  });

  it('refuses a driver name it does not know, saying which it knows', () => {
    expect(() => loadConnectorConfig({}, { LEDGERWIRE_SQLITE_DRIVER: 'sqlite3' })).toThrow(ConnectorConfigError);
    expect(() => loadConnectorConfig({}, { LEDGERWIRE_SQLITE_DRIVER: 'sqlite3' })).toThrow('LEDGERWIRE_SQLITE_DRIVER: must be one of auto, node, better-sqlite3');
  });

  it.runIf(!nodeSqliteUsable)('refuses node:sqlite on a Node without a usable one, saying which Node it needs', () => {
    expect(() => openSqliteConnection(':memory:', 'node')).toThrow(
      `The node SQLite driver needs Node's built-in SQLite as of Node 22.16 (node:sqlite with iterate, isTransaction and a busy timeout); this is Node ${process.version}`,
    );
  });
});
