// `npm run build`: the JavaScript the relay, connector and emulator run, and the browser pages they serve.
//   node build/build.mjs [--when-stale] [relay|connector|emulator ...]   (no name: all three)
// Each program is bundled by esbuild into one ES module under <workspace>/dist/: our own code and the
// workspace packages it imports (@ledgerwire/shared) compiled in, every npm dependency left outside and
// loaded from node_modules as usual. Why esbuild rather than tsc's emit: the workspaces' package entries
// point at their TypeScript sources (so Vitest, tsx and the type-checker read them directly); tsc would
// need a second, compiled entry per workspace and a build order, while the bundle simply contains
// them. It also loads one file instead of some 400, which is most of the start-up time saved. Type
// checking stays `npm run typecheck`'s job. The admin CLI keeps its own bundle (relay/src/cli/admin-launcher.mjs).
//
// --when-stale builds a target only when it is missing or a file that went into it (esbuild's metafile
// lists them, this script included) is newer than its stamp, so `npm start` pays for a build only
// after an edit.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Where <workspace>/dist/ is written: the repository, or elsewhere for a test that must not replace the
// build other suites are running from (LEDGERWIRE_BUILD_OUTPUT_ROOT).
const outputRoot = process.env['LEDGERWIRE_BUILD_OUTPUT_ROOT'] ? path.resolve(process.env['LEDGERWIRE_BUILD_OUTPUT_ROOT']) : root;
const thisScript = path.relative(root, fileURLToPath(import.meta.url));

/** Dependencies stay in node_modules: native addons and packages that read files beside themselves work as installed. */
const keepDependenciesOutside = {
  name: 'dependencies-outside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@ledgerwire/') || args.kind === 'entry-point' ? undefined : { path: args.path, external: true },
    );
  },
};

function programBuild(entry, outfile, define = {}) {
  return {
    entryPoints: [path.join(root, entry)],
    outfile: path.join(outputRoot, outfile),
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [keepDependenciesOutside],
    define,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/**
 * A Preact page (the relay's console, the connector's local page): hashed assets written into a folder.
 * `moreEntries` (paths under appDir) are further pages built alongside main.tsx with the same toolkit.
 */
function pageBuild(appDir, outdir, moreEntries = []) {
  return {
    entryPoints: ['main.tsx', ...moreEntries].map((entry) => path.join(root, appDir, entry)),
    tsconfig: path.join(root, appDir, 'tsconfig.json'),
    absWorkingDir: root,
    bundle: true,
    outdir: path.join(outputRoot, outdir),
    entryNames: '[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/**
 * Each target: what it writes. A page folder is written whole beside its final place and swapped in, so a
 * relay reading it never sees a half-written one, and assets of an older build do not pile up.
 */
export const TARGETS = {
  relay: [
    { kind: 'program', options: programBuild('relay/src/server.ts', 'relay/dist/server.mjs') },
    // The hosted connect page (/connect/{token}) is a second entry of the console's build.
    { kind: 'page', options: pageBuild('relay/src/console/app', 'relay/dist/console', ['connect/connect-main.tsx']) },
  ],
  // LEDGERWIRE_PACKAGED: the compiled connector reads its pre-built page from ui/ beside it (page-location.ts).
  connector: [
    { kind: 'program', options: programBuild('connector/src/cli.ts', 'connector/dist/cli.mjs', { LEDGERWIRE_PACKAGED: 'true' }) },
    { kind: 'page', options: pageBuild('connector/src/ui/browser', 'connector/dist/ui') },
  ],
  emulator: [{ kind: 'program', options: programBuild('emulator/src/cli.ts', 'emulator/dist/cli.mjs') }],
};

function stampFile(step) {
  const out = step.options.outfile ?? step.options.outdir;
  return `${out}.stamp.json`;
}

/** Current when the stamp exists and no input it lists (nor this script) changed after the build started. */
export function isCurrent(step) {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(stampFile(step), 'utf8'));
  } catch {
    return false;
  }
  const output = step.options.outfile ?? step.options.outdir;
  if (!fs.existsSync(output) || !Array.isArray(stamp.inputs) || typeof stamp.startedAt !== 'number') return false;
  for (const input of [...stamp.inputs, thisScript]) {
    const stat = fs.statSync(path.resolve(root, input), { throwIfNoEntry: false });
    if (stat === undefined || stat.mtimeMs > stamp.startedAt) return false;
  }
  return true;
}

async function buildStep(esbuild, step) {
  // Dated from when the build started: a source saved while esbuild runs still counts as newer.
  const startedAt = Date.now();
  const temporarySuffix = `.${process.pid}.tmp`;
  if (step.kind === 'program') {
    const { outfile } = step.options;
    const result = await esbuild.build({ ...step.options, outfile: `${outfile}${temporarySuffix}` });
    fs.renameSync(`${outfile}${temporarySuffix}`, outfile);
    return { startedAt, inputs: Object.keys(result.metafile.inputs) };
  }
  const { outdir } = step.options;
  const building = `${outdir}${temporarySuffix}`;
  fs.rmSync(building, { recursive: true, force: true });
  const result = await esbuild.build({ ...step.options, outdir: building });
  const retiring = `${outdir}.old${temporarySuffix}`;
  if (fs.existsSync(outdir)) fs.renameSync(outdir, retiring);
  fs.renameSync(building, outdir);
  fs.rmSync(retiring, { recursive: true, force: true });
  return { startedAt, inputs: Object.keys(result.metafile.inputs) };
}

/** Builds the named targets (only their stale steps when `whenStale`); returns the outputs written. */
export async function build(names = Object.keys(TARGETS), { whenStale = false } = {}) {
  const steps = names.flatMap((name) => {
    const target = TARGETS[name];
    if (target === undefined) throw new Error(`unknown build target "${name}" (known: ${Object.keys(TARGETS).join(', ')})`);
    return target;
  });
  const due = whenStale ? steps.filter((step) => !isCurrent(step)) : steps;
  if (due.length === 0) return [];
  const esbuild = await import('esbuild');
  const written = [];
  for (const step of due) {
    const stamp = await buildStep(esbuild, step);
    const file = stampFile(step);
    fs.writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify(stamp));
    fs.renameSync(`${file}.${process.pid}.tmp`, file);
    written.push(path.relative(outputRoot, step.options.outfile ?? step.options.outdir));
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const whenStale = args.includes('--when-stale');
  const names = args.filter((arg) => arg !== '--when-stale');
  try {
    const written = await build(names.length > 0 ? names : undefined, { whenStale });
    if (written.length > 0 || !whenStale) process.stderr.write(`Built ${written.join(', ')}\n`);
  } catch (error) {
    process.stderr.write(`Build failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
