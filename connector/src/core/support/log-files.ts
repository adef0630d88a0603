// The connector's log as files in its data folder, for support: `logs\connector.log`, one JSON line per
// record, rolled over at 1 MB and kept five deep (`connector.log.1` is the newest old one), so a
// connector that runs for months keeps about 6 MB of recent history and never fills the disk. Written by
// rotating-file-stream; a failing disk loses log lines, never the connector.
import path from 'node:path';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import type { LogSink } from './logger.js';

export const LOG_FILE_NAME = 'connector.log';
const ROLL_AT = '1M';
const KEEP_OLD_FILES = 5;

export function logsDir(dataDir: string): string {
  return path.join(dataDir, 'logs');
}

export type LogFiles = Readonly<{ sink: LogSink; close(): Promise<void> }>;

export function openLogFiles(dataDir: string, clock: () => Date = () => new Date()): LogFiles {
  const stream: RotatingFileStream = createStream(LOG_FILE_NAME, { path: logsDir(dataDir), size: ROLL_AT, rotate: KEEP_OLD_FILES, mode: 0o600 });
  let broken = false;
  stream.on('error', () => {
    broken = true;
  });
  // A rotation that fails (a file held open by a virus scanner, say) is retried at the next one.
  stream.on('warning', () => undefined);
  return {
    sink: (record) => {
      if (broken) return;
      stream.write(`${JSON.stringify({ time: clock().toISOString(), ...record })}\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (broken) return resolve();
        stream.end(() => resolve());
      }),
  };
}
