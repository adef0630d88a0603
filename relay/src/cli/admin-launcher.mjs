// `npm run admin -- …` starts here, in plain Node, so that a command answers in a fraction of a second.
// Run through tsx, every command cost 1.5 s of CPU (6–7 s on a busy machine) before doing anything:
// tsx's second process and loader thread, and some 700 modules (Kysely alone is hundreds of files)
// each resolved and read. Instead the CLI is bundled once with esbuild into one file under
// node_modules/.cache, rebuilt when any file that went into it changes, and imported directly.
// Only native or optional modules stay outside the bundle.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const relayDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repositoryRoot = path.resolve(relayDir, '..');
const entry = path.join(relayDir, 'src/cli/admin.ts');
const cacheDir = path.join(repositoryRoot, 'node_modules/.cache/ledgerwire-admin');
const bundleFile = path.join(cacheDir, 'admin-cli.mjs');
const inputsFile = path.join(cacheDir, 'admin-cli.inputs.json');
const EXTERNAL = ['better-sqlite3', 'pg-native'];

/** The bundle is current when it exists and no file that went into it changed since it was written. */
function bundleIsCurrent() {
  let builtAt;
  let inputs;
  try {
    builtAt = fs.statSync(bundleFile).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(inputsFile, 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(inputs) || inputs.length === 0) return false;
  for (const input of inputs) {
    const stat = fs.statSync(path.resolve(repositoryRoot, input), { throwIfNoEntry: false });
    if (stat === undefined || stat.mtimeMs > builtAt) return false;
  }
  return true;
}

async function buildBundle() {
  const { build } = await import('esbuild');
  fs.mkdirSync(cacheDir, { recursive: true });
  // Written beside the target and renamed into place, so two commands started together never
  // import a half-written bundle.
  const temporary = `${bundleFile}.${process.pid}.tmp`;
  // A source saved while esbuild runs must still count as newer than the bundle: the bundle is dated
  // from when the build started, not when it finished.
  const startedAt = new Date();
  const result = await build({
    entryPoints: [entry],
    outfile: temporary,
    absWorkingDir: repositoryRoot,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    metafile: true,
    minify: true,
    logLevel: 'error',
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const inputs = Object.keys(result.metafile.inputs);
  fs.writeFileSync(`${inputsFile}.${process.pid}.tmp`, JSON.stringify(inputs));
  fs.utimesSync(temporary, startedAt, startedAt);
  fs.renameSync(temporary, bundleFile);
  fs.renameSync(`${inputsFile}.${process.pid}.tmp`, inputsFile);
}

/** When bundling fails (a new import esbuild cannot take), the command still runs, the slow way. */
function runThroughTsx(reason) {
  process.stderr.write(`admin: running without the bundle (${reason})\n`);
  const tsx = path.join(repositoryRoot, 'node_modules/.bin/tsx');
  const child = spawnSync(tsx, [entry, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

let ready = bundleIsCurrent();
if (!ready) {
  try {
    await buildBundle();
    ready = true;
  } catch (error) {
    runThroughTsx(error instanceof Error ? error.message.split('\n')[0] : String(error));
  }
}
if (ready) await import(pathToFileURL(bundleFile).href);
