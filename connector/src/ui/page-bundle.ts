// The local page's browser code (Preact + TypeScript under ./browser, built with @ledgerwire/ui-kit as the
// console is) bundled by esbuild. The connector run from its sources (tests, tsx) bundles it in memory at
// start; `npm run connector` (build/build.mjs writes connector/dist/ui) and the Electron package
// (build/bundle-connector.mjs writes it with writePageFiles) carry it pre-built and bundle nothing.
// Asset names carry content hashes; index.html is rendered here.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type PageAsset = Readonly<{ body: Buffer; contentType: string }>;

export type PageBundle = Readonly<{
  /** Hashed file name (e.g. `main-3FJ2K.js`) → contents, served under /assets/. */
  assets: ReadonlyMap<string, PageAsset>;
  indexHtml: string;
}>;

export const ASSET_PATH = '/assets/';

const contentTypes: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

let cached: Promise<PageBundle> | undefined;

/** The page bundled in memory, once per process (every connector started in this process shares it). */
export function connectorPageBundle(): Promise<PageBundle> {
  cached ??= buildPageBundle().catch((error: unknown) => {
    // A failed build must not stick: the next start tries again.
    cached = undefined;
    throw error;
  });
  return cached;
}

async function buildPageBundle(): Promise<PageBundle> {
  // Imported here, not at the top: the Electron package reads the pre-built page and has no esbuild.
  const esbuild = await import('esbuild');
  // Resolved when building, not at import: in the Electron bundle (CommonJS) import.meta.url is empty.
  const browserDir = fileURLToPath(new URL('./browser/', import.meta.url));
  // buildSync runs esbuild once and lets it exit: the connector runs for days on the shop's computer and
  // keeps no esbuild helper process (the async API would keep one) for a build made once at start.
  const result = esbuild.buildSync({
    entryPoints: [path.join(browserDir, 'main.tsx')],
    tsconfig: path.join(browserDir, 'tsconfig.json'),
    bundle: true,
    write: false,
    outdir: '/connector-page',
    entryNames: '[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    // Chromium of a current Electron, and the browsers a shop owner may open the address in.
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const assets = new Map<string, PageAsset>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    const contentType = contentTypes[path.extname(name)];
    if (contentType !== undefined) assets.set(name, { body: Buffer.from(file.contents), contentType });
  }
  return withIndex(assets);
}

function withIndex(assets: ReadonlyMap<string, PageAsset>): PageBundle {
  const script = [...assets.keys()].find((name) => name.endsWith('.js'));
  const style = [...assets.keys()].find((name) => name.endsWith('.css'));
  if (script === undefined || style === undefined) throw new Error('the connector page build produced no script or no stylesheet');
  return { assets, indexHtml: renderIndexHtml(script, style) };
}

/** Writes the page's assets into `dir` (for the Electron package); readPageFiles reads them back. */
export async function writePageFiles(dir: string): Promise<string[]> {
  const bundle = await connectorPageBundle();
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, asset] of bundle.assets) fs.writeFileSync(path.join(dir, name), asset.body);
  return [...bundle.assets.keys()];
}

/** The page as writePageFiles left it in `dir`. */
export function readPageFiles(dir: string): PageBundle {
  const assets = new Map<string, PageAsset>();
  for (const name of fs.readdirSync(dir)) {
    const contentType = contentTypes[path.extname(name)];
    if (contentType !== undefined) assets.set(name, { body: fs.readFileSync(path.join(dir, name)), contentType });
  }
  return withIndex(assets);
}

function renderIndexHtml(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Ledgerwire Connector</title>
<link rel="stylesheet" href="${ASSET_PATH}${style}">
<script type="module" src="${ASSET_PATH}${script}"></script>
</head>
<body>
<div id="app"><noscript>The Ledgerwire Connector page needs JavaScript.</noscript></div>
</body>
</html>
`;
}
