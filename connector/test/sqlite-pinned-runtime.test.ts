// The local store's suite (connector/test/state) on node:sqlite under the Node the Windows package ships
// (build/node-runtime.json, its Linux build from the npm registry): Vitest itself runs under that Node
// with LEDGERWIRE_SQLITE_DRIVER=node, so the stores, migrations, run lock and backup are proved on the
// very node:sqlite the package carries, whatever Node runs this suite (Node 20 has no node:sqlite; a
// newer one differs). Any failure inside fails this test with the inner failures' text.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './state/store-drivers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pin = JSON.parse(fs.readFileSync(path.join(root, 'build/node-runtime.json'), 'utf8')) as { version: string };
/** Cut the inner run off after this: a hung statement loop must not hang the whole test run. */
const INNER_RUN_LIMIT_MS = 150_000;

type VitestJson = {
  numTotalTests: number;
  testResults: { name: string; status: string; message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
};

/** The pinned runtime's path, by the fetcher's command-line form (downloads it once, checked against the pin). */
async function pinnedNode(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'build/node-runtime.mjs'), 'linux-x64'], { cwd: root });
  return stdout.trim();
}

function runInnerSuite(node: string, reportFile: string): Promise<{ code: number | null; output: string }> {
  // The outer run's own variables would tell the inner Vitest it is one of the outer's workers.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const args = [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    path.join(root, 'connector/test/state/pinned-runtime.vitest.config.ts'),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { cwd: root, env: { ...env, LEDGERWIRE_SQLITE_DRIVER: 'node', NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const limit = setTimeout(() => child.kill('SIGKILL'), INNER_RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ code, output });
    });
  });
}

/** A failure's text with the stack frames inside Vitest left out: what is left points at the suite. */
function withoutRunnerFrames(messages: readonly string[]): string {
  return messages.map((message) => message.split('\n').filter((line) => !line.includes('/node_modules/')).join('\n')).join('\n');
}

describe('the local store on the pinned Node runtime', () => {
  it(`passes its whole suite on node:sqlite under Node ${pin.version}`, { timeout: INNER_RUN_LIMIT_MS + 60_000 }, async () => {
    const node = await pinnedNode();
    const { stdout: version } = await promisify(execFile)(node, ['--version']);
    expect(version.trim()).toBe(`v${pin.version}`);

    const reportFile = path.join(tempDir('lw-pinned-'), 'report.json');
    const { code, output } = await runInnerSuite(node, reportFile);
    if (!fs.existsSync(reportFile)) throw new Error(`The inner run (exit ${code}) wrote no report:\n${output}`);
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as VitestJson;
    const failures = report.testResults.flatMap((file) => [
      ...(file.status === 'failed' && file.message ? [`${path.relative(root, file.name)}: ${file.message}`] : []),
      ...file.assertionResults.filter((test) => test.status === 'failed').map((test) => `${test.fullName}\n${withoutRunnerFrames(test.failureMessages)}`),
    ]);
    expect(failures.join('\n\n')).toBe('');
    expect(code, output).toBe(0);

    // It ran on node:sqlite alone: every test named for that driver, and enough of them to be the suite.
    const names = report.testResults.flatMap((file) => file.assertionResults.map((test) => test.fullName));
    expect(names.length).toBeGreaterThanOrEqual(15);
    expect(names.filter((name) => !name.includes(' on node '))).toEqual([]);
  });
});
