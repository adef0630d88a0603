// Runs npm scripts side by side and fails when any of them fails: `npm test` type-checks and lints at
// the same time, since each mostly waits on one core and CI has two.
//   node build/run-side-by-side.mjs typecheck lint
// Each script's output is kept whole and printed as one block, prefixed with its name, when it ends
// (interleaved lines of tsc and eslint would be unreadable); the exit code is the first failure's.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node build/run-side-by-side.mjs <npm script> [<npm script> ...]\n');
  process.exit(2);
}

/** Runs `npm run --silent <script>`; resolves with its exit code and everything it printed, in order. */
function runScript(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ script, code: 1, output: `could not start npm: ${error.message}\n`, seconds: 0 }));
    child.on('close', (code, signal) =>
      resolve({ script, code: code ?? 1, signal, output: Buffer.concat(chunks).toString(), seconds: (Date.now() - started) / 1000 }),
    );
  });
}

function report({ script, code, signal, output, seconds }) {
  const lines = output.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) process.stdout.write(`[${script}] ${line}\n`);
  const outcome = code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
  process.stdout.write(`[${script}] ${outcome} in ${seconds.toFixed(1)} s\n`);
}

const results = await Promise.all(scripts.map((script) => runScript(script).then((result) => (report(result), result))));
const failed = results.find((result) => result.code !== 0);
process.exitCode = failed === undefined ? 0 : failed.code;
