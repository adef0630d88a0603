// Starts the three programs of the demo as a user would — each from its own CLI, as a child
// process — and waits for each to answer before the next step. Each runs as `npm run build` compiled
// it (what `npm start` runs, and it starts in a fraction of the time tsx takes to load the sources);
// the callers build it first when stale (`npm run demo`, the test run's global setup).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The repository's programs, compiled by `npm run build` (build/build.mjs). */
export const COMPILED_PROGRAMS = {
  relay: 'relay/dist/server.mjs',
  emulator: 'emulator/dist/cli.mjs',
  connector: 'connector/dist/cli.mjs',
} as const;
export type ProgramName = keyof typeof COMPILED_PROGRAMS;

/** `npm run build --when-stale` for the three programs, for a runner started without npm; throws when the build fails. */
export function buildProgramsWhenStale(): void {
  const result = spawnSync(process.execPath, [path.join(repositoryRoot, 'build/build.mjs'), '--when-stale'], { cwd: repositoryRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed: the programs were not compiled');
}

/** Node's arguments that run a compiled program: node itself, so a signal sent to the child reaches the program. */
export function programArguments(program: ProgramName, args: readonly string[]): string[] {
  return [path.join(repositoryRoot, COMPILED_PROGRAMS[program]), ...args];
}

export type ManagedProcess = Readonly<{ name: string; child: ChildProcess; output(): string; stdout(): string }>;

export function startProgram(name: string, program: ProgramName, args: readonly string[], env: Record<string, string> = {}): ManagedProcess {
  const child = spawn(process.execPath, programArguments(program, args), {
    cwd: repositoryRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-20_000);
    keep(chunk);
  });
  child.stderr?.on('data', keep);
  return { name, child, output: () => output, stdout: () => stdout };
}

/**
 * Waits for the program's own readiness line on its stdout. The line is evidence that this very
 * process is listening (a port answering could belong to anything else on the machine).
 */
export function waitForStdout(program: ManagedProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      program.child.stdout?.off('data', check);
      program.child.off('exit', exited);
      outcome();
    };
    const check = () => {
      const match = pattern.exec(program.stdout());
      if (match) finish(() => resolve(match));
    };
    const exited = (code: number | null) =>
      finish(() => reject(new Error(`${program.name} exited (${code}) before it was ready:\n${program.output()}`)));
    const timer = setTimeout(
      () => finish(() => reject(new Error(`Timed out waiting for ${program.name} to be ready:\n${program.output()}`))),
      timeoutMs,
    );
    program.child.stdout?.on('data', check);
    program.child.once('exit', exited);
    check();
  });
}

/** Runs a CLI command to completion and returns its stdout; throws with its output on failure. */
export function runProgram(program: ProgramName, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, programArguments(program, args), { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${program} ${args[0] ?? ''} exited ${code}: ${stderr || stdout}`)),
    );
  });
}

/** For the kit's `eventually`: stop waiting at once, with the program's output, when it has exited. */
export function exitedWhile(program: ManagedProcess, what: string): () => Error | undefined {
  return () => {
    const exitCode = program.child.exitCode;
    return exitCode === null ? undefined : new Error(`${program.name} exited (${exitCode}) while waiting for ${what}:\n${program.output()}`);
  };
}

export async function stopAll(processes: readonly ManagedProcess[]): Promise<void> {
  await Promise.all(
    [...processes].reverse().map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.child.exitCode !== null) return resolve();
          const timer = setTimeout(() => p.child.kill('SIGKILL'), 5000);
          p.child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          p.child.kill('SIGTERM');
        }),
    ),
  );
}
