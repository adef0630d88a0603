// A PostgreSQL cluster of the fault matrix's own, on a free port in a temporary directory (initdb +
// pg_ctl, run as the `postgres` user when this process is root, as PostgreSQL requires), so that it
// can be stopped and restarted mid-run. The machine's shared PostgreSQL is never touched.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemFreePort } from '../demo/demo-ports.js';

function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

export function throwawayPostgresAvailable(): boolean {
  return postgresBinDir() !== undefined;
}

export class ThrowawayPostgres {
  private readonly bin = postgresBinDir()!;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-fault-pg-'));
  private readonly data = path.join(this.dir, 'data');
  private readonly socketDir = path.join(this.dir, 'socket');
  port = 0;

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async start(): Promise<void> {
    this.port = await systemFreePort();
    fs.mkdirSync(this.socketDir);
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', this.dir]);
    this.run('initdb', ['-D', this.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    this.pgCtl(['start', '-w', '-t', '60']);
  }

  /** An immediate stop (what a crash looks like to clients: connections cut, no shutdown handshake), then a start. */
  restart(): void {
    this.pgCtl(['stop', '-m', 'immediate', '-w', '-t', '60']);
    this.pgCtl(['start', '-w', '-t', '60']);
  }

  stop(): void {
    try {
      this.pgCtl(['stop', '-m', 'fast', '-w', '-t', '60']);
    } catch {
      // already stopped
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private pgCtl(args: string[]): void {
    const options = `-p ${this.port} -k ${this.socketDir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.run('pg_ctl', ['-D', this.data, '-l', path.join(this.dir, 'server.log'), '-o', options, ...args]);
  }

  private run(program: string, args: string[]): void {
    const binary = path.join(this.bin, program);
    if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', binary, ...args], { stdio: 'pipe' });
    else execFileSync(binary, args, { stdio: 'pipe' });
  }
}
