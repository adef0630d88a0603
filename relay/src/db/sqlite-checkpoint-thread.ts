// The thread that checkpoints the relay's SQLite WAL on a connection of its own (its code is in
// sqlite-checkpoint-thread-source.ts), so the statements connection on the event loop never writes the
// WAL back into the database file nor waits for that file's sync. It never keeps the process alive
// while it waits for the next poke; closing it closes the last connection, which writes the WAL back
// and removes it.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SQLITE_CHECKPOINT_THREAD_SOURCE } from './sqlite-checkpoint-thread-source.js';

export type SqliteCheckpoint = Readonly<{ mode: 'passive' | 'restart'; walFrames: number; checkpointedFrames: number }>;

type DescribedError = Readonly<{ name: string; message: string; code?: string }>;
type ThreadEvent = Readonly<
  { kind: 'ready' | 'failed' | 'closed' | 'checkpoint-failed' | 'checkpointed' | 'restart-wanted'; error?: DescribedError } & Partial<SqliteCheckpoint>
>;

export type CheckpointThreadEvents = Readonly<{
  checkpointed: (checkpoint: SqliteCheckpoint) => void;
  /** The WAL is still long after a passive checkpoint: run a RESTART between two transactions. */
  restartWanted: () => void;
  /** A checkpoint failed, or the thread stopped: nothing is checkpointed here any more. */
  failed: (error: Error) => void;
}>;

/** An Error with the name, message and SQLite code a thread described. */
function errorFrom(described: DescribedError): Error {
  const error = described.name === 'TypeError' ? new TypeError(described.message) : described.name === 'RangeError' ? new RangeError(described.message) : new Error(described.message);
  if (error.name !== described.name) error.name = described.name;
  if (described.code !== undefined) Object.assign(error, { code: described.code });
  return error;
}

export class SqliteCheckpointThread {
  private readonly worker: Worker;
  private readonly opened: Promise<void>;
  private closing: Promise<void> | undefined;
  private stopped = false;

  constructor(file: string, pragmas: readonly string[], private readonly events: CheckpointThreadEvents) {
    const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(SQLITE_CHECKPOINT_THREAD_SOURCE, { eval: true, workerData: { file, pragmas, driverPath } });
    this.worker.unref();
    this.opened = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (event: ThreadEvent) => {
        if (event.kind === 'ready') {
          this.worker.unref();
          resolve();
        }
        else if (event.kind === 'failed') reject(errorFrom(event.error ?? { name: 'Error', message: 'SQLite could not be opened' }));
        else if (event.kind === 'checkpointed') {
          this.events.checkpointed({ mode: event.mode ?? 'passive', walFrames: event.walFrames ?? 0, checkpointedFrames: event.checkpointedFrames ?? 0 });
        } else if (event.kind === 'restart-wanted') this.events.restartWanted();
        else if (event.kind === 'checkpoint-failed') this.fail(errorFrom(event.error ?? { name: 'Error', message: 'checkpoint failed' }));
      });
      this.worker.on('error', (error) => {
        reject(error);
        this.fail(error);
      });
      this.worker.on('exit', (code) => {
        const error = new Error(`the SQLite checkpoint thread stopped (exit code ${code})`);
        reject(error);
        if (!this.closing) this.fail(error);
      });
    });
  }

  ready(): Promise<void> {
    return this.opened;
  }

  /** Asks for a passive checkpoint (pokes sent while one runs are taken as one). */
  poke(): void {
    if (!this.stopped) this.worker.postMessage({ kind: 'checkpoint' });
  }

  /** Closes the thread's connection and lets the thread end. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.worker.threadId === -1) return resolve();
      this.worker.ref();
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ kind: 'close' });
    });
    return this.closing;
  }

  private fail(error: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    this.events.failed(error);
  }
}
