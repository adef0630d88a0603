// The code of the relay's SQLite checkpoint thread (see sqlite-checkpoint-thread.ts), as text: plain
// CommonJS that runs the same under tsx, vitest and a bundle (a TypeScript file would need the loader
// in the thread).
//
// It holds a second connection to the database and, each time the statements connection pokes it,
// runs a PASSIVE checkpoint: the WAL written back into the database file, which is then synced — work
// that on the statements connection would hold up the event loop. A passive checkpoint never waits
// for, nor blocks, the writer or a reader. It cannot catch up with a writer that keeps writing,
// though, and the WAL only starts afresh (and stops growing) once one has; so when the WAL still holds
// more than RESTART_FRAMES frames after it, the thread asks for a RESTART checkpoint, which the
// statements connection runs between two transactions: nearly every frame is back in the file by
// then, so it is short.
export const SQLITE_CHECKPOINT_THREAD_SOURCE = `
'use strict';
const { parentPort, receiveMessageOnPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);

const RESTART_FRAMES = 4096;

function describe(error) {
  if (error === null || typeof error !== 'object') return { name: 'Error', message: String(error) };
  return { name: String(error.name || 'Error'), message: String(error.message), code: typeof error.code === 'string' ? error.code : undefined };
}

let db;
try {
  db = new Database(workerData.file);
  for (const pragma of workerData.pragmas) db.pragma(pragma);
} catch (error) {
  parentPort.postMessage({ kind: 'failed', error: describe(error) });
}
if (db !== undefined) {
  const close = () => {
    db.close();
    parentPort.postMessage({ kind: 'closed' });
    parentPort.close();
  };
  parentPort.on('message', (message) => {
    if (message.kind === 'close') return close();
    // Pokes that came while the last checkpoint ran ask for nothing more than this one does.
    for (let next = receiveMessageOnPort(parentPort); next !== undefined; next = receiveMessageOnPort(parentPort)) {
      if (next.message.kind === 'close') return close();
    }
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ kind: 'checkpointed', mode: 'passive', walFrames: result.log, checkpointedFrames: result.checkpointed });
      if (result.log > RESTART_FRAMES) parentPort.postMessage({ kind: 'restart-wanted' });
    } catch (error) {
      parentPort.postMessage({ kind: 'checkpoint-failed', error: describe(error) });
    }
  });
  parentPort.postMessage({ kind: 'ready' });
}
`;
