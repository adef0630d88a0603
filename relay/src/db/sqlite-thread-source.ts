// The code of the relay's two SQLite threads (see sqlite-thread.ts), as text: plain CommonJS that runs
// the same under tsx, vitest and a bundle (a TypeScript file would need the loader in the thread).
//
// Role `statements` owns the connection every query runs on: it prepares each SQL text once (kept by
// text, as the relay's queries are a small fixed set) and answers each query with its rows or its
// change count. A query may carry `begin`: its transaction's BEGIN, run just before it (sqlite-thread.ts
// saves BEGIN a round trip of its own).
//
// WAL checkpoints: on the statements connection a checkpoint (the WAL written back into the database
// file, which is then synced) would hold up every query queued behind the commit that triggered it. So
// once role `checkpoints` runs — a second connection on a thread of its own — automatic checkpoints are
// off on the statements connection, and every CHECKPOINT_EVERY statements that end outside a
// transaction it pokes the checkpoint thread, which runs a PASSIVE checkpoint: one that never waits for,
// nor blocks, the writer or a reader. A passive checkpoint cannot catch up with a writer that keeps
// writing, though, and the WAL only starts afresh (and stops growing) once one has; so when the WAL
// still holds more than RESTART_FRAMES frames after it, the checkpoint thread asks the statements
// thread for a RESTART checkpoint, run there between two transactions: nearly all frames are already
// back in the file by then, so it is short, and no writer has to wait in SQLite's busy handler for it.
export const SQLITE_THREAD_SOURCE = `
'use strict';
const { parentPort, receiveMessageOnPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);

const STATEMENT_CACHE_SIZE = 500;
const CHECKPOINT_EVERY = 64;
const RESTART_FRAMES = 4096;

function describe(error) {
  if (error === null || typeof error !== 'object') return { name: 'Error', message: String(error) };
  return { name: String(error.name || 'Error'), message: String(error.message), code: typeof error.code === 'string' ? error.code : undefined };
}

function open() {
  const db = new Database(workerData.file);
  for (const pragma of workerData.pragmas) db.pragma(pragma);
  return db;
}

function closeOn(db, port) {
  port.close();
  db.close();
  parentPort.postMessage({ kind: 'closed' });
  parentPort.close();
}

function runStatements(db, checkpoints) {
  const statements = new Map();
  // Poked only once the checkpoint thread runs and automatic checkpoints are off.
  let pokeCheckpoints = false;
  let endedSinceCheckpoint = 0;
  let restartWanted = false;
  const prepared = (sql) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value);
      statements.set(sql, statement);
    }
    return statement;
  };
  const restartIfWanted = () => {
    if (!restartWanted || db.inTransaction) return;
    restartWanted = false;
    try {
      const [result] = db.pragma('wal_checkpoint(RESTART)');
      parentPort.postMessage({ kind: 'checkpointed', mode: 'restart', walFrames: result.log, checkpointedFrames: result.checkpointed });
    } catch (error) {
      parentPort.postMessage({ kind: 'checkpoint-failed', error: describe(error) });
    }
  };
  checkpoints.on('message', () => {
    restartWanted = true;
    restartIfWanted();
  });
  parentPort.on('message', (message) => {
    if (message.kind === 'close') return closeOn(db, checkpoints);
    if (message.kind === 'autocheckpoint') {
      db.pragma('wal_autocheckpoint = ' + Number(message.pages));
      pokeCheckpoints = Number(message.pages) === 0;
      return;
    }
    let reply;
    try {
      if (message.begin) prepared('begin').run();
      const statement = prepared(message.sql);
      if (statement.reader) {
        reply = { id: message.id, rows: statement.all(message.parameters) };
      } else {
        const result = statement.run(message.parameters);
        reply = { id: message.id, changes: result.changes, lastInsertRowid: result.lastInsertRowid };
      }
    } catch (error) {
      reply = { id: message.id, error: describe(error) };
    }
    parentPort.postMessage(reply);
    if (!pokeCheckpoints || db.inTransaction) return;
    restartIfWanted();
    if (++endedSinceCheckpoint >= CHECKPOINT_EVERY) {
      endedSinceCheckpoint = 0;
      checkpoints.postMessage('checkpoint');
    }
  });
}

function runCheckpoints(db, statements) {
  statements.on('message', () => {
    // Pokes that came while the last checkpoint ran ask for nothing more than this one does.
    while (receiveMessageOnPort(statements) !== undefined);
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ kind: 'checkpointed', mode: 'passive', walFrames: result.log, checkpointedFrames: result.checkpointed });
      if (result.log > RESTART_FRAMES) statements.postMessage('restart');
    } catch (error) {
      parentPort.postMessage({ kind: 'checkpoint-failed', error: describe(error) });
    }
  });
  parentPort.on('message', (message) => {
    if (message.kind === 'close') closeOn(db, statements);
  });
}

let db;
try {
  db = open();
} catch (error) {
  parentPort.postMessage({ kind: 'failed', error: describe(error) });
}
if (db !== undefined) {
  if (workerData.role === 'checkpoints') runCheckpoints(db, workerData.port);
  else runStatements(db, workerData.port);
  parentPort.postMessage({ kind: 'ready' });
}
`;
