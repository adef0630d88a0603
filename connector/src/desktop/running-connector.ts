// The connector running in the background for this user, seen from another process of the same
// program: the Start-menu entry starts it when needed and opens its page; the installer stops it
// before an upgrade or an uninstall. They find it by the status file it keeps in the data folder, which
// names its process and its page's address (with that start's token, which also authorises `stop`).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { readLiveStatusFile, type StatusFile } from '../core/service/status-file.js';

export type RunningConnector = Readonly<{ pid: number; uiUrl: string }>;

export function findRunningConnector(dataDir: string): RunningConnector | undefined {
  const live: StatusFile | undefined = readLiveStatusFile(dataDir);
  return live?.uiUrl ? { pid: live.pid, uiUrl: live.uiUrl } : undefined;
}

/** Resolves when `check` gives a value, polling every `everyMs` (another process's doing: nothing to wait on). */
async function waitFor<T>(check: () => T | undefined, timeoutMs: number, everyMs = 100): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type BackgroundStart = Readonly<{
  /** This program's script (process.argv[1]) and the flags its runtime was started with. */
  script: string;
  execArgv: readonly string[];
  dataDir: string;
  timeoutMs?: number;
}>;

/**
 * Starts `run --background` as a process of its own, not tied to this one (no window, no console, it
 * outlives the Start-menu click that started it), and waits until it serves its page.
 */
export async function startInBackground(start: BackgroundStart): Promise<RunningConnector> {
  const child = spawn(process.execPath, [...start.execArgv, start.script, 'run', '--background', '--data', start.dataDir], {
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  child.once('error', () => (exited = -1));
  child.unref();
  // A start that loses the race to another (two clicks) exits at once; the winner's status file counts.
  const running = await waitFor(() => findRunningConnector(start.dataDir) ?? (exited !== undefined && exited !== 0 ? null : undefined), start.timeoutMs ?? 60_000);
  if (!running) {
    throw new Error(
      exited !== undefined ? `the connector stopped as it started (exit code ${exited}); see the log files in the data folder` : 'the connector did not start within a minute; see the log files in the data folder',
    );
  }
  return running;
}

/**
 * Calls the running connector's local API, as its page does (with that start's token); resolves with
 * the status and the JSON answer, or undefined when it does not answer.
 */
export function callRunningConnector(running: RunningConnector, method: 'GET' | 'POST', route: string, timeoutMs = 30_000): Promise<{ status: number; body: unknown } | undefined> {
  const page = new URL(running.uiUrl);
  const headers: Record<string, string> = { 'x-ui-token': page.searchParams.get('token') ?? '' };
  if (method === 'POST') Object.assign(headers, { 'content-type': 'application/json', 'content-length': '2' });
  return new Promise((resolve) => {
    const request = http.request(new URL(route, page.origin), { method, headers, timeout: timeoutMs }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: response.statusCode ?? 0, body });
      });
      response.on('error', () => resolve(undefined));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(undefined));
    request.end(method === 'POST' ? '{}' : undefined);
  });
}

async function askToStop(running: RunningConnector): Promise<boolean> {
  return (await callRunningConnector(running, 'POST', '/api/stop', 10_000))?.status === 200;
}

export type StopResult = Readonly<{ wasRunning: boolean; pid: number | null; forced: boolean }>;

/**
 * Stops this user's running connector: asks it (it finishes the import under way, keeps everything else
 * for its next start), and ends its process if it has not gone within `graceMs` — safe too, since a cut
 * import is looked up by REMOTEID at the next start, never booked twice.
 */
export async function stopRunningConnector(dataDir: string, graceMs = 30_000): Promise<StopResult> {
  const running = findRunningConnector(dataDir);
  if (!running) return { wasRunning: false, pid: null, forced: false };
  const asked = await askToStop(running);
  const gone = asked ? await waitFor(() => (processAlive(running.pid) ? undefined : true), graceMs) : undefined;
  if (gone) return { wasRunning: true, pid: running.pid, forced: false };
  try {
    process.kill(running.pid);
  } catch {
    // Gone between the two looks.
  }
  await waitFor(() => (processAlive(running.pid) ? undefined : true), 10_000);
  return { wasRunning: true, pid: running.pid, forced: true };
}
