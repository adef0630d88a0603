// `npm run bench -- relay-start`: what running the compiled relay saves against running its sources
// through tsx. Each way starts BENCH_STARTS times (default 5) as its own process on a free port with a
// fresh SQLite DATA_DIR; measured are the time from spawn to the first 200 from /readyz and the
// resident memory then, summed over the process tree (tsx runs the relay in a second Node process).
// Printed side by side with compiled ÷ tsx (medians). The compiled bundle is built first when stale.
// BENCH_BEFORE_ROOT=DIR takes the tsx run from another checkout (say, the commit before the relay ran
// compiled, which also bundled the console at every start) instead of this one's sources.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTS = Number(process.env.BENCH_STARTS ?? 5);

type Way = Readonly<{ name: string; cwd: string; command: readonly string[] }>;

const beforeRoot = process.env.BENCH_BEFORE_ROOT ? path.resolve(process.env.BENCH_BEFORE_ROOT) : root;

const WAYS: readonly Way[] = [
  {
    name: beforeRoot === root ? 'tsx relay/src/server.ts (before)' : 'tsx, BENCH_BEFORE_ROOT (before)',
    cwd: beforeRoot,
    command: [path.join(beforeRoot, 'node_modules/.bin/tsx'), 'relay/src/server.ts'],
  },
  { name: 'node relay/dist/server.mjs (npm start)', cwd: root, command: [process.execPath, 'relay/dist/server.mjs'] },
];

type Start = Readonly<{ readyMs: number; rssMb: number }>;

function descendants(pid: number): number[] {
  const taskDir = `/proc/${pid}/task`;
  if (!fs.existsSync(taskDir)) return [];
  const children = fs
    .readdirSync(taskDir)
    .flatMap((task) => fs.readFileSync(path.join(taskDir, task, 'children'), 'utf8').split(/\s+/).filter(Boolean).map(Number));
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function readyzAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/readyz`);
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function startOnce(way: Way): Promise<Start> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-start-'));
  const [command, ...args] = way.command as [string, ...string[]];
  const startedAt = performance.now();
  const child: ChildProcess = spawn(command, args, {
    cwd: way.cwd,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RELAY_ADMIN_TOKEN: '', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/\S+) /.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`${way.name} exited (${code}) before listening: ${stdout}`)));
    });
    // Listening comes before ready only by a tick; polling closes the gap without guessing it.
    while (!(await readyzAnswers(url))) await new Promise((resolve) => setImmediate(resolve));
    const readyMs = performance.now() - startedAt;
    const pid = child.pid ?? 0;
    const rssMb = [pid, ...descendants(pid)].reduce((sum, each) => sum + rssKb(each), 0) / 1024;
    return { readyMs, rssMb };
  } finally {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export async function run(): Promise<void> {
  const build = spawnSync(process.execPath, ['build/build.mjs', '--when-stale', 'relay'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the relay build failed');
  console.log(`relay-start: ${STARTS} starts each, alternating, medians (SQLite, fresh DATA_DIR each)`);
  const results = new Map<string, Start[]>(WAYS.map((way) => [way.name, []]));
  for (let round = 0; round < STARTS; round += 1) {
    for (const way of WAYS) results.get(way.name)?.push(await startOnce(way));
  }
  const [before, after] = WAYS.map((way) => {
    const starts = results.get(way.name) ?? [];
    return { name: way.name, readyMs: median(starts.map((s) => s.readyMs)), rssMb: median(starts.map((s) => s.rssMb)) };
  }) as [{ name: string; readyMs: number; rssMb: number }, { name: string; readyMs: number; rssMb: number }];
  console.log(`\n  ${'way'.padEnd(40)} ${'to /readyz 200'.padStart(15)} ${'RSS'.padStart(10)}`);
  for (const row of [before, after]) console.log(`  ${row.name.padEnd(40)} ${`${row.readyMs.toFixed(0)} ms`.padStart(15)} ${`${row.rssMb.toFixed(1)} MB`.padStart(10)}`);
  console.log(`  ${'compiled ÷ tsx'.padEnd(40)} ${(after.readyMs / before.readyMs).toFixed(2).padStart(15)} ${(after.rssMb / before.rssMb).toFixed(2).padStart(10)}`);
}
