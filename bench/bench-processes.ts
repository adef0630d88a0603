// Starts the books emulator and the connector as their own processes, from their command lines, the
// way they run in a deployment (TallyPrime and the connector are programs of their own on the customer's
// PC; the relay is elsewhere). A benchmark that ran them on the relay's event loop would measure three
// programs taking turns on one thread, a contention no deployment has.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type ChildHandle = Readonly<{ child: ChildProcess; stop(): Promise<void> }>;

/** BENCH_CPU_PROF_DIR=DIR writes a V8 CPU profile of each child process there (for `--cpu-prof` of this one, see Node's docs). */
const profileFlags = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF_DIR] : [];

/** `launcher`: a command that starts the program (taskset, to place it on cores), or none. */
function tsxProcess(script: string, args: readonly string[], env: Record<string, string>, stdout: 'pipe' | 'ignore', launcher: readonly string[] = []): ChildProcess {
  const [command, ...rest] = [...launcher, process.execPath, ...profileFlags, '--import', 'tsx', path.join(root, script), ...args] as [string, ...string[]];
  return spawn(command, rest, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return async () => {
    child.kill('SIGTERM');
    await exited;
  };
}

/** Resolves with the first stdout line matching `pattern`; rejects if the process exits first. */
function firstMatch(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = pattern.exec(seen);
      if (match) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(match);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (code ${code}) before it was ready: ${seen.slice(0, 500)}`)));
  });
}

export type EmulatorProcess = ChildHandle & Readonly<{ xmlUrl: string; controlUrl: string }>;

/** `npm run emulator` on free ports with the demo seed, in its own process (started through `launcher`, if given). */
export async function spawnEmulator(dataDir: string, launcher: readonly string[] = []): Promise<EmulatorProcess> {
  const child = tsxProcess('emulator/src/cli.ts', ['--port', '0', '--control-port', '0', '--data', dataDir, '--seed', 'demo'], {}, 'pipe', launcher);
  const match = await firstMatch(child, /XML on (\S+), control API on (\S+),/, 'the emulator');
  return { child, xmlUrl: match[1] as string, controlUrl: match[2] as string, stop: stopper(child) };
}

/** `npm run connector -- run --data DIR` in its own process (enrolled and paired beforehand). */
export async function spawnConnector(dataDir: string, env: Record<string, string>): Promise<ChildHandle> {
  const child = tsxProcess('connector/src/cli.ts', ['run', '--data', dataDir], env, 'pipe');
  await firstMatch(child, /"running": true/, 'the connector');
  return { child, stop: stopper(child) };
}

/** Computes and allocates without end, as a busy JavaScript program does, with bounded memory. */
const BUSY_LOOP = `
let kept = [];
for (let i = 0; ; i += 1) {
  kept.push({ n: i, text: 'entry ' + i, at: Math.sqrt(i) });
  if (kept.length > 100000) kept = [];
}`;

/**
 * Another program keeping one core busy, talking to no one: set beside the emulator alone, it shows
 * what any second busy program costs the emulator on this machine.
 */
export function spawnBusyNeighbour(): ChildHandle {
  const child = spawn(process.execPath, ['-e', BUSY_LOOP], { stdio: 'ignore' });
  return { child, stop: stopper(child) };
}
