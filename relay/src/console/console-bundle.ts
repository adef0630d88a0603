// Builds the console's browser code (Preact + TypeScript under ./app) with esbuild, in memory, when
// the relay starts: `npm start` needs no build step and tests get the very bundle users get. Assets
// carry content hashes in their names so they can be cached for ever; index.html is rendered here.
// A second entry, the hosted connect page (app/connect/), is built with the same toolkit in the same
// build and served at /connect/{token}.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export type ConsoleAsset = Readonly<{ body: Buffer; contentType: string }>;

export type ConsoleBundle = Readonly<{
  /** Hashed file name (e.g. `main-3FJ2K.js`) → contents. */
  assets: ReadonlyMap<string, ConsoleAsset>;
  indexHtml: string;
  /** The hosted connect page (its assets are in `assets` too). */
  connectHtml: string;
}>;

const appDir = fileURLToPath(new URL('./app/', import.meta.url));

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

let cached: Promise<ConsoleBundle> | undefined;

/** The bundle, built once per process (every app built in this process shares it). */
export function consoleBundle(): Promise<ConsoleBundle> {
  cached ??= buildConsoleBundle().catch((error: unknown) => {
    // A failed build must not stick: the next app start tries again.
    cached = undefined;
    throw error;
  });
  return cached;
}

async function buildConsoleBundle(): Promise<ConsoleBundle> {
  const result = await build({
    entryPoints: [path.join(appDir, 'main.tsx'), path.join(appDir, 'connect', 'connect-main.tsx')],
    tsconfig: path.join(appDir, 'tsconfig.json'),
    bundle: true,
    write: false,
    outdir: '/console-assets',
    entryNames: '[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const assets = new Map<string, ConsoleAsset>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    const contentType = contentTypes[path.extname(name)];
    if (contentType === undefined) continue;
    assets.set(name, { body: Buffer.from(file.contents), contentType });
  }
  const entry = (name: string, extension: string) => {
    const found = [...assets.keys()].find((file) => file.startsWith(`${name}-`) && file.endsWith(extension));
    if (found === undefined) throw new Error(`The console build produced no ${extension} for ${name}`);
    return found;
  };
  return {
    assets,
    indexHtml: renderIndexHtml(entry('main', '.js'), entry('main', '.css')),
    connectHtml: renderConnectHtml(entry('connect-main', '.js'), entry('connect-main', '.css')),
  };
}

function renderConnectHtml(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Connect TallyPrime</title>
<link rel="stylesheet" href="/console/assets/${style}">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body>
<div id="app"><noscript>This page needs JavaScript to guide you through connecting TallyPrime.</noscript></div>
</body>
</html>
`;
}

function renderIndexHtml(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Ledgerwire console</title>
<link rel="stylesheet" href="/console/assets/${style}">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body>
<div id="app"><noscript>The Ledgerwire console needs JavaScript.</noscript></div>
</body>
</html>
`;
}
