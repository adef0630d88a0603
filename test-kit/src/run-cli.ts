// The one way tests and drivers run a program to its end (the admin CLI, the connector, the emulator,
// Wine): what it printed and how it exited, and, when asked, a failure that shows its stderr.
import { spawn } from 'node:child_process';
import { inheritedEnvironment } from './test-kit-config.js';

export type RunCliOptions = Readonly<{
  /** Arguments after the program (after the script for a node script). */
  args?: readonly string[];
  /** Added to (and overriding) this process's environment, unless `replaceEnv` is set. */
  env?: Readonly<Record<string, string | undefined>>;
  replaceEnv?: boolean;
  stdin?: string;
  cwd?: string;
  /** Fails (with stderr) when the program exits with another code. */
  expectCode?: number;
  timeoutMs?: number;
}>;

export type CliResult = Readonly<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;

/** A .js/.mjs/.cjs script runs on this Node, a .ts/.mts/.cts one on this Node with tsx; anything else is executed as it is. */
export function runCli(program: string, options: RunCliOptions = {}): Promise<CliResult> {
  const isScript = /\.(c|m)?js$/.test(program);
  const isTypeScript = /\.(c|m)?ts$/.test(program);
  const command = isScript || isTypeScript ? process.execPath : program;
  const args = [...(isTypeScript ? ['--import', 'tsx'] : []), ...(isScript || isTypeScript ? [program] : []), ...(options.args ?? [])];
  const env = options.replaceEnv ? { ...options.env } : { ...inheritedEnvironment(), ...options.env };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env, ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (options.expectCode !== undefined && code !== options.expectCode) {
        reject(new Error(`${[program, ...(options.args ?? [])].join(' ')} exited ${code ?? signal}, expected ${options.expectCode}:\n${stderr.slice(-4000)}`));
      } else resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
  });
}
