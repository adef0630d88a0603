// The connector as the Windows package carries it: the command line and core bundled by esbuild into one
// CommonJS file (app\connector.cjs) for the pinned Node runtime, its local page pre-built beside it
// (app\ui), and the licences of everything bundled in (THIRD-PARTY-NOTICES.txt). No native addon: the
// local store runs on the runtime's node:sqlite, and better-sqlite3 stays out of the bundle.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** Never bundled: a native addon, tools only a development checkout runs, optional speed-ups of ws. */
const OUTSIDE_THE_BUNDLE = ['better-sqlite3', 'esbuild', 'electron', 'bufferutil', 'utf-8-validate'];

export async function bundleConnector({ root, appDir, version, nodeTarget }) {
  fs.mkdirSync(appDir, { recursive: true });
  const result = await build({
    entryPoints: [path.join(root, 'connector/src/cli.ts')],
    // Input paths in the metafile are relative to this (the notices find each package's folder by them).
    absWorkingDir: root,
    outfile: path.join(appDir, 'connector.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: nodeTarget,
    external: OUTSIDE_THE_BUNDLE,
    define: { LEDGERWIRE_PACKAGED: 'true', LEDGERWIRE_BUILD_VERSION: JSON.stringify(version) },
    // page-bundle.ts reads import.meta.url only to bundle the page at start, which the package never does.
    logOverride: { 'empty-import-meta': 'silent' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const { tsImport } = await import('tsx/esm/api');
  const { writePageFiles } = await tsImport(path.join(root, 'connector/src/ui/page-bundle.ts'), import.meta.url);
  const pageFiles = await writePageFiles(path.join(appDir, 'ui'));
  return { bundledInputs: Object.keys(result.metafile.inputs), pageFiles };
}

/** The package folder an input file belongs to (the last node_modules/<name> or node_modules/@scope/<name> on its path). */
function packageDirOf(root, input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const depth = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return path.join(root, ...parts.slice(0, at + depth));
}

function licenceText(dir) {
  const file = fs.readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.md|\.txt)?$/i.test(name));
  return file ? fs.readFileSync(path.join(dir, file), 'utf8').trim() : undefined;
}

/** THIRD-PARTY-NOTICES.txt: Node.js's licence and each bundled package's, sorted by name. */
export function thirdPartyNotices({ root, bundledInputs, nodeVersion, pageInputs = [] }) {
  const dirs = new Set([...bundledInputs, ...pageInputs].map((input) => packageDirOf(root, input)).filter(Boolean));
  const sections = [...dirs]
    .map((dir) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const text = licenceText(dir) ?? `Licensed under ${manifest.license ?? 'the terms in its package'}.`;
      return { name: `${manifest.name} ${manifest.version}`, text };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const node = {
    name: `Node.js ${nodeVersion} (ledgerwire-connector.exe)`,
    text: 'Copyright Node.js contributors. All rights reserved.\nLicensed under the MIT License; Node.js also contains third-party code under the licences listed at https://github.com/nodejs/node/blob/main/LICENSE.',
  };
  return [node, ...sections].map((section) => `${section.name}\n${'-'.repeat(section.name.length)}\n${section.text}\n`).join('\n');
}
