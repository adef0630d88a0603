// A Windows user of our own under Wine, for the installer suite: a fresh 64-bit prefix in a temporary
// folder, set to Windows 10 (Node refuses older), whose user name has a space and non-ASCII letters (Wine
// names the profile after $USER when the prefix is made). Windows programs run with `wine`, the
// registry is read with `reg query`, processes end with `taskkill`, and `wineserver -k` ends them all,
// as a sign-out does.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type WineResult = Readonly<{ code: number | null; stdout: string; stderr: string }>;

export type WineSession = Readonly<{
  prefix: string;
  user: string;
  /** The user's profile folder, seen from Linux. */
  profileDir: string;
  /** Runs a Windows program to its end (the installer, `reg`, a connector command). */
  run(args: readonly string[], options?: { env?: Record<string, string>; timeoutMs?: number }): Promise<WineResult>;
  /** Starts a Windows program that goes on running (the connector as logon starts it). */
  start(args: readonly string[], env?: Record<string, string>): ChildProcess;
  /** A Windows path (C:\users\…) as a Linux path inside the prefix. */
  linuxPath(windowsPath: string): string;
  /** The values of one registry key, by name; undefined when the key is absent. */
  registryValues(key: string): Promise<Record<string, string> | undefined>;
  /** The ids of the Windows processes running now (Wine's tasklist prints nothing; its wmic lists them). */
  processIds(): Promise<Set<number>>;
  /** Waits until every Windows program of the prefix has ended (and with them Wine's server). */
  waitIdle(timeoutMs?: number): Promise<void>;
  /** Ends every Windows program of the prefix at once (a sign-out or a power cut, for the programs). */
  endAll(): Promise<void>;
  close(): Promise<void>;
}>;

/**
 * Runs a program with its output in files, not pipes, and waits for it to exit: a Windows program it
 * starts (the connector the installer starts, wineserver) would hold pipes open long after it ended.
 */
function runToExit(file: string, args: readonly string[], env: Record<string, string>, timeoutMs: number): Promise<WineResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-wine-out-'));
  const out = fs.openSync(path.join(dir, 'stdout'), 'w');
  const err = fs.openSync(path.join(dir, 'stderr'), 'w');
  const child = spawn(file, [...args], { env, stdio: ['ignore', out, err] });
  fs.closeSync(out);
  fs.closeSync(err);
  const read = () => {
    const result = { stdout: fs.readFileSync(path.join(dir, 'stdout'), 'utf8'), stderr: fs.readFileSync(path.join(dir, 'stderr'), 'utf8') };
    fs.rmSync(dir, { recursive: true, force: true });
    return result;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      const { stdout, stderr } = read();
      reject(new Error(`${file} ${args.join(' ')} did not end within ${timeoutMs / 1000} s\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, ...read() });
    });
  });
}

export async function createWineSession(options: { user: string }): Promise<WineSession> {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-wine-'));
  const baseEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    WINEPREFIX: prefix,
    WINEARCH: 'win64',
    WINEDEBUG: '-all',
    // No Mono or Gecko installers at boot (they would ask through a window), no X display.
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    DISPLAY: '',
    // Wine reads file names on its command line in the locale's encoding: UTF-8, for the user's letters.
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    USER: options.user,
    LOGNAME: options.user,
  };
  const run: WineSession['run'] = (args, runOptions = {}) => runToExit('wine', args, { ...baseEnv, ...runOptions.env }, runOptions.timeoutMs ?? 180_000);
  const server = (flag: string, timeoutMs: number) => runToExit('wineserver', [flag], baseEnv, timeoutMs);

  const booted = await runToExit('wineboot', ['--init'], baseEnv, 300_000);
  if (booted.code !== 0) throw new Error(`wineboot failed (${booted.code}): ${booted.stderr}`);
  const version = await run(['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f']);
  if (version.code !== 0) throw new Error(`could not set Wine's Windows version: ${version.stderr}`);

  const linuxPath = (windowsPath: string) => path.join(prefix, 'drive_c', ...windowsPath.replace(/^[A-Za-z]:\\/, '').split('\\'));
  return {
    prefix,
    user: options.user,
    profileDir: linuxPath(`C:\\users\\${options.user}`),
    run,
    start: (args, env) => spawn('wine', [...args], { env: { ...baseEnv, ...env }, stdio: 'ignore' }),
    linuxPath,
    async registryValues(key) {
      // `reg export` writes UTF-16 exactly; `reg query` prints through the console's code page, where
      // the user's name in a path would lose its letters.
      const file = 'C:\\lw-registry-export.reg';
      const exported = await run(['reg', 'export', key, file, '/y']);
      if (exported.code !== 0) return undefined;
      const text = fs.readFileSync(linuxPath(file)).toString('utf16le').replace(/^\uFEFF/, '');
      return parseRegFile(text);
    },
    async processIds() {
      const listed = await run(['wmic', 'process', 'get', 'ProcessId'], { timeoutMs: 60_000 });
      // UTF-16LE in a pipe: read as UTF-8, its ASCII digits stand between NUL bytes.
      const text = listed.stdout.replaceAll('\u0000', '');
      return new Set([...text.matchAll(/^\s*(\d+)\s*$/gm)].map((match) => Number(match[1])));
    },
    async waitIdle(timeoutMs = 120_000) {
      await server('-w', timeoutMs);
    },
    async endAll() {
      await server('-k', 30_000);
      await server('-w', 30_000);
    },
    async close() {
      await server('-k', 30_000).catch(() => undefined);
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** Splits a Windows command line as the Run key holds it ("C:\…\a.exe" --flag "C:\…\b.cjs" run) into its words. */
export function commandLineWords(commandLine: string): string[] {
  const words: string[] = [];
  for (const match of commandLine.matchAll(/"([^"]*)"|(\S+)/g)) words.push(match[1] ?? match[2] ?? '');
  return words;
}

const unescapeReg = (text: string) => text.replace(/\\(.)/g, '$1');

/** The values of a `reg export` file's key: strings as they are, DWORDs as decimal numbers. */
export function parseRegFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^"((?:[^"\\]|\\.)*)"=(.*)$/.exec(line);
    if (!match) continue;
    const raw = match[2] as string;
    const dword = /^dword:([0-9a-f]{8})$/i.exec(raw);
    values[unescapeReg(match[1] as string)] = dword ? String(Number.parseInt(dword[1] as string, 16)) : unescapeReg(raw.replace(/^"|"$/g, ''));
  }
  return values;
}
