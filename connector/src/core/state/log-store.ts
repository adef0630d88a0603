// The connector's log as a person sees it in the local UI: plain sentences, newest last, bounded.
import type { LocalDatabase } from './local-database.js';

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';
export type LogEntry = Readonly<{ id: number; at: string; level: LogLevelName; message: string }>;

const KEEP = 2000;

export class LogStore {
  private writes = 0;
  constructor(private readonly db: LocalDatabase, private readonly clock: () => Date = () => new Date()) {}

  append(level: LogLevelName, message: string): void {
    this.db.prepare('INSERT INTO log (at, level, message) VALUES (?, ?, ?)').run(this.clock().toISOString(), level, message.slice(0, 4000));
    this.writes += 1;
    if (this.writes % 200 === 0) {
      this.db.prepare('DELETE FROM log WHERE id <= (SELECT MAX(id) FROM log) - ?').run(KEEP);
    }
  }

  recent(limit: number): LogEntry[] {
    return (this.db.prepare('SELECT * FROM log ORDER BY id DESC LIMIT ?').all(limit) as LogEntry[]).reverse();
  }
}
