// The relay's embedded SQLite (src/db/sqlite-dialect.ts): statements on the event loop, WAL
// checkpoints on a thread of their own. These check what the relay relies on from it — errors keep
// their SQLite codes, transactions are atomic, checkpoints run on the checkpoint thread (not on the
// connection every query waits on), a lock another connection holds is waited for without stopping
// the event loop, and the thread never keeps a process alive.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '@ledgerwire/test-kit';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import type { SqliteCheckpoint } from '../../src/db/sqlite-dialect.js';
import { isUniqueViolation } from '../../src/foundation/messaging-ids.js';


describe('embedded SQLite', () => {
  let dataDir: string;
  let database: RelayDatabase | undefined;
  const checkpoints: SqliteCheckpoint[] = [];
  let checkpointSeen: (() => void) | undefined;

  function open(): RelayDatabase {
    database = openDatabase(
      { kind: 'sqlite', file: path.join(dataDir, 'relay.sqlite') },
      {
        onSqliteCheckpoint: (checkpoint) => {
          checkpoints.push(checkpoint);
          checkpointSeen?.();
        },
      },
    );
    return database;
  }

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-sqlite-'));
    checkpoints.length = 0;
  });
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a unique-index collision with SQLite’s code, as the relay’s repeat detection expects', async () => {
    const { db } = open();
    await sql`create table t (k text primary key)`.execute(db);
    await sql`insert into t (k) values ('a')`.execute(db);
    const error = await sql`insert into t (k) values ('a')`.execute(db).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: string }).code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(isUniqueViolation(error)).toBe(true);
    // A value SQLite cannot bind is refused as better-sqlite3 refuses it on the main thread.
    await expect(sql`select ${true as unknown as number} as x`.execute(db)).rejects.toBeInstanceOf(TypeError);
  });

  it('keeps a transaction atomic: a failure inside it leaves none of its writes', async () => {
    const { db } = open();
    await sql`create table t (k text primary key, n integer not null)`.execute(db);
    await expect(
      db.transaction().execute(async (tx) => {
        await sql`insert into t (k, n) values ('a', 1)`.execute(tx);
        await sql`insert into t (k, n) values ('a', 2)`.execute(tx);
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
    expect(rows).toEqual([{ n: 0 }]);
    // A failure in the very first statement of a transaction.
    await expect(
      db.transaction().execute(async (tx) => {
        await sql`insert into t (k, n) values ('x', null)`.execute(tx);
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_NOTNULL' });
    // A transaction that runs no statement commits nothing and leaves the connection usable.
    await db.transaction().execute(async () => undefined);
    const inserted = await db.transaction().execute((tx) => sql`insert into t (k, n) values ('b', 1), ('c', 2)`.execute(tx));
    expect(inserted.numAffectedRows).toBe(2n);
    const { rows: after } = await sql<{ k: string }>`select k from t order by k`.execute(db);
    expect(after).toEqual([{ k: 'b' }, { k: 'c' }]);
  });

  it('checkpoints the WAL on the checkpoint thread, with automatic checkpoints off on the statements connection', async () => {
    const { db } = open();
    await sql`create table t (n integer not null)`.execute(db);
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
    expect(rows).toEqual([{ wal_autocheckpoint: 0 }]);
    const seen = new Promise<void>((resolve) => (checkpointSeen = resolve));
    // Statements that end outside a transaction poke the checkpoint thread every 64.
    for (let n = 0; n < 100; n += 1) await sql`insert into t (n) values (${n})`.execute(db);
    await seen;
    expect(checkpoints[0]).toMatchObject({ mode: 'passive' });
    expect(checkpoints[0]!.walFrames).toBeGreaterThan(0);
    expect(checkpoints[0]!.checkpointedFrames).toBeGreaterThan(0);
  });

  it('starts the WAL afresh while writes keep coming: by a passive checkpoint that caught up, or a RESTART past 4,096 frames', async () => {
    const { db } = open();
    await sql`create table t (n integer not null, body text not null)`.execute(db);
    // Whether a passive checkpoint catches up with the writer depends on how the two threads are
    // scheduled; either way the WAL must start afresh rather than grow for as long as writes come.
    const restarted = () => checkpoints.some((checkpoint) => checkpoint.mode === 'restart');
    const passive = () => checkpoints.filter((checkpoint) => checkpoint.mode === 'passive');
    const caughtUp = () => passive().some((checkpoint, index, all) => index > 0 && checkpoint.walFrames < all[index - 1]!.walFrames);
    // Each transaction writes a page of its own (a row larger than half a page).
    const body = 'x'.repeat(3000);
    for (let n = 0; n < 20_000 && !restarted() && !caughtUp(); n += 1) {
      await db.transaction().execute((tx) => sql`insert into t (n, body) values (${n}, ${body})`.execute(tx));
      // Statements run on the event loop now: a server's writes arrive on I/O turns, in which the
      // thread's answers are read too. A loop of awaited statements alone would never give it one.
      if (n % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(restarted() || caughtUp()).toBe(true);
    const restart = checkpoints.find((checkpoint) => checkpoint.mode === 'restart');
    if (restart) {
      // Asked for by a passive checkpoint that found the WAL past the limit; it wrote every frame back.
      expect(passive().some((checkpoint) => checkpoint.walFrames > 4096)).toBe(true);
      expect(restart.checkpointedFrames).toBe(restart.walFrames);
    }
  });

  it('waits for a lock another connection holds on timers, so the holder on the same event loop can finish', async () => {
    const first = open();
    await sql`create table t (k text primary key)`.execute(first.db);
    const second = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'relay.sqlite') });
    try {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding: () => void = () => undefined;
      const writing = new Promise<void>((resolve) => (holding = resolve));
      // The first handle holds the write lock across an await; the second wants to write meanwhile.
      const holder = first.db.transaction().execute(async (tx) => {
        await sql`insert into t (k) values ('first')`.execute(tx);
        holding();
        await held;
      });
      await writing;
      const waiter = sql`insert into t (k) values ('second')`.execute(second.db);
      // The event loop goes on while the second waits: a timer fires, and the holder can commit.
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      await holder;
      await waiter;
      const { rows } = await sql<{ k: string }>`select k from t order by k`.execute(first.db);
      expect(rows).toEqual([{ k: 'first' }, { k: 'second' }]);
    } finally {
      await second.destroy();
    }
  });

  it('lets a process end once its queries are answered, and not before', async () => {
    const child = path.join(dataDir, 'child.mts');
    const databaseModule = fileURLToPath(new URL('../../src/db/database.ts', import.meta.url));
    // No destroy(): an idle checkpoint thread must not hold the process open.
    fs.writeFileSync(
      child,
      `import { openDatabase } from ${JSON.stringify(databaseModule)};
       const { db } = openDatabase({ kind: 'sqlite', file: ${JSON.stringify(path.join(dataDir, 'child.sqlite'))} });
       const rows = await db.selectNoFrom((eb) => eb.lit(42).as('answer')).execute();
       process.stdout.write(JSON.stringify(rows));`,
    );
    const result = await runCli(child, { timeoutMs: 60_000, cwd: path.dirname(databaseModule) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[{"answer":42}]');
  });
});
