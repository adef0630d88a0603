// The relay as `npm start` runs it: the build step of the start script (only when stale), then plain
// Node on the compiled bundle. No TypeScript loader on its command line, no bundler helper beside it,
// no TypeScript file named by the bundle, /readyz reporting its loops, and the console served from the
// pre-built files.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const startScript = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
const [buildCommand = '', runCommand = ''] = startScript.split('&&').map((part) => part.trim());

function words(command: string): [string, ...string[]] {
  const [program = '', ...args] = command.split(/\s+/);
  return [program === 'node' ? process.execPath : program, ...args];
}

function runBuild(env: Record<string, string> = {}): string {
  const [program, ...args] = words(buildCommand);
  const result = spawnSync(program, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  expect(result.status, result.stderr).toBe(0);
  return result.stderr;
}

/** Every specifier the bundle imports, static or dynamic. */
function importedSpecifiers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"([^"]+)"/g)].map((match) => match[1] ?? '');
}

function childPids(pid: number): number[] {
  const taskDir = `/proc/${pid}/task`;
  return fs.readdirSync(taskDir).flatMap((task) =>
    fs.readFileSync(path.join(taskDir, task, 'children'), 'utf8').split(/\s+/).filter(Boolean).map(Number),
  );
}

describe('the compiled relay (npm start)', { timeout: 90_000 }, () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('the start script builds first, then runs plain Node on relay/dist/server.mjs', () => {
    expect(buildCommand).toBe('node build/build.mjs --when-stale relay');
    expect(runCommand).toBe('node relay/dist/server.mjs');
  });

  it('builds only when stale: a build older than its sources is rebuilt, a current one is left alone', () => {
    // Into a folder of its own: rebuilding the repository's dist would swap it under the suites running from it.
    const outputRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-build-'));
    cleanups.push(() => fs.rmSync(outputRoot, { recursive: true, force: true }));
    const env = { LEDGERWIRE_BUILD_OUTPUT_ROOT: outputRoot };
    expect(runBuild(env)).toContain('Built relay/dist/server.mjs, relay/dist/console');
    const stamp = path.join(outputRoot, 'relay/dist/server.mjs.stamp.json');
    const written = JSON.parse(fs.readFileSync(stamp, 'utf8')) as { startedAt: number; inputs: string[] };
    expect(written.inputs).toContain('relay/src/server.ts');
    expect(written.inputs).toContain('shared/src/index.ts');
    expect(runBuild(env)).toBe('');
    // Dated before every source: as after an edit, the next start rebuilds that program (its page is still current).
    fs.writeFileSync(stamp, JSON.stringify({ ...written, startedAt: 0 }));
    expect(runBuild(env)).toBe('Built relay/dist/server.mjs\n');
    expect(runBuild(env)).toBe('');
  });

  it('the bundle names no TypeScript file and no loader or bundler; workspace packages are compiled in', () => {
    runBuild();
    const specifiers = importedSpecifiers(path.join(root, 'relay/dist/server.mjs'));
    expect(specifiers.length).toBeGreaterThan(10);
    expect(specifiers.filter((specifier) => /\.(m|c)?tsx?$/.test(specifier))).toEqual([]);
    expect(specifiers.filter((specifier) => /^(tsx|esbuild|vite)(\/|$)/.test(specifier))).toEqual([]);
    expect(specifiers.filter((specifier) => specifier.startsWith('@ledgerwire/'))).toEqual([]);
  });

  it('starts on a random port, answers /readyz and the console, with no loader and no helper process', async () => {
    runBuild();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-compiled-'));
    const { RELAY_ADMIN_TOKEN: _token, DATABASE_URL: _url, ...inherited } = process.env;
    const [program, ...args] = words(runCommand);
    const child: ChildProcessWithoutNullStreams = spawn(program, args, {
      cwd: root,
      env: { ...inherited, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`relay exited (${code}) before listening: ${stdout}`)));
    });

    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const readiness = (await ready.json()) as { status: string; database: string; loops: { name: string; running: boolean; stuck: boolean }[] };
    expect(readiness).toMatchObject({ status: 'ready', database: 'ok' });
    // The loops report themselves: every one running, none stuck.
    expect(readiness.loops.map((loop) => loop.name)).toEqual(expect.arrayContaining(['messaging-dispatch', 'webhook-delivery', 'bridge-lease-reaper']));
    expect(readiness.loops.every((loop) => loop.running && !loop.stuck)).toBe(true);

    const pid = child.pid ?? 0;
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(commandLine).toEqual([process.execPath, 'relay/dist/server.mjs']);
    // esbuild's service and tsx's loader would each be a process of their own under the relay.
    expect(childPids(pid)).toEqual([]);

    const page = await fetch(`${url}/console`);
    expect(page.status).toBe(200);
    const script = /src="\/console\/assets\/([^"]+\.js)"/.exec(await page.text())?.[1];
    expect(script).toBeDefined();
    expect(fs.existsSync(path.join(root, 'relay/dist/console', script ?? ''))).toBe(true);
    const asset = await fetch(`${url}/console/assets/${script}`);
    expect(asset.status).toBe(200);
    await asset.arrayBuffer();

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
