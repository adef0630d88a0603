// The running connector writes its status next to its database, so `connector status` (another
// process) can show the live relay link too. Written atomically (temp file + rename), 0600.
import fs from 'node:fs';
import path from 'node:path';
import type { ConnectorStatus } from './connector-status.js';

export type StatusFile = Readonly<{ pid: number; uiUrl: string | null; writtenAt: string; status: ConnectorStatus }>;

export function statusFilePath(dataDir: string): string {
  return path.join(dataDir, 'status.json');
}

export function writeStatusFile(dataDir: string, content: StatusFile): void {
  const file = statusFilePath(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(content), { mode: 0o600 });
  fs.renameSync(temp, file);
}

export function removeStatusFile(dataDir: string): void {
  fs.rmSync(statusFilePath(dataDir), { force: true });
}

/** The status a live connector wrote, or undefined when none runs (no file, or its process is gone). */
export function readLiveStatusFile(dataDir: string): StatusFile | undefined {
  let content: StatusFile;
  try {
    content = JSON.parse(fs.readFileSync(statusFilePath(dataDir), 'utf8')) as StatusFile;
  } catch {
    return undefined;
  }
  try {
    process.kill(content.pid, 0);
    return content;
  } catch {
    return undefined;
  }
}
