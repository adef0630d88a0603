// The connector's command line as a user runs it, for the suites that spawn it: a real Node process on
// the compiled connector (connector/dist/cli.mjs, what `npm run connector` and the installer run; the
// test run's global setup builds it when stale), quiet logs and short presence and reconnect intervals
// so the tests wait less.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type CliResult } from '@ledgerwire/test-kit';

export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = path.join(REPOSITORY_ROOT, 'connector/dist/cli.mjs');
const QUIET_ENV = { LEDGERWIRE_LOG_LEVEL: 'warn', LEDGERWIRE_PRESENCE_INTERVAL_MS: '200', LEDGERWIRE_RECONNECT_BASE_MS: '50', LEDGERWIRE_RECONNECT_CAP_MS: '500' };

/** Starts `connector <args>` and hands back the process, for commands that keep running (`run`). */
export function spawnConnectorCli(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI, ...args], { cwd: REPOSITORY_ROOT, env: { ...process.env, ...QUIET_ENV, ...env } });
}

/** Runs `connector <args>` to its end (through the kit's runner) and gathers what it printed. */
export function runConnectorCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(CLI, { args, cwd: REPOSITORY_ROOT, env: { ...QUIET_ENV, ...env } });
}
