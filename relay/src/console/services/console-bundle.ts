// The console's browser code (Preact + TypeScript under ./app) as `npm run build` wrote it into
// relay/dist/console (build/build.mjs): a started relay reads those files and bundles nothing. Asset
// names carry content hashes so they can be cached for ever; index.html is rendered here, naming them.
// A second entry of the same build, the hosted connect page (app/connect/connect-main.tsx), is served
// at /connect/{token} from the same folder.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type ConsoleAsset = Readonly<{ body: Buffer; contentType: string }>;

export type ConsoleBundle = Readonly<{
  /** Hashed file name (e.g. `main-3FJ2K.js`) → contents. */
  assets: ReadonlyMap<string, ConsoleAsset>;
  indexHtml: string;
  /** The hosted connect page (its assets are in `assets` too). */
  connectHtml: string;
}>;

export class ConsoleNotBuiltError extends Error {
  constructor(dir: string, reason: string) {
    super(`The console's pages are not built (${dir}: ${reason}). Run "npm run build" (npm start does it for you).`);
    this.name = 'ConsoleNotBuiltError';
  }
}

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * relay/dist/console, found from this module's own place: the sources (relay/src/console/) and the
 * compiled relay (relay/dist/server.mjs) sit at different depths, so the nearest folder holding the
 * relay's package.json is taken.
 */
export function builtConsoleDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === '@ledgerwire/relay') {
      return path.join(dir, 'dist', 'console');
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new ConsoleNotBuiltError(from, 'no relay package.json above it');
    dir = parent;
  }
}

/** The built console as the build left it in `dir`; a missing or incomplete build stops the start with what to run. */
export function readConsoleBundle(dir: string = builtConsoleDir()): ConsoleBundle {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    throw new ConsoleNotBuiltError(dir, 'missing');
  }
  const assets = new Map<string, ConsoleAsset>();
  for (const name of names) {
    const contentType = contentTypes[path.extname(name)];
    if (contentType !== undefined) assets.set(name, { body: fs.readFileSync(path.join(dir, name)), contentType });
  }
  // Entries are told apart by name: `main-…` (the console) and `connect-main-…` (the connect page).
  const entry = (name: string, extension: string) => {
    const found = [...assets.keys()].find((file) => file.startsWith(`${name}-`) && file.endsWith(extension));
    if (found === undefined) throw new ConsoleNotBuiltError(dir, `no script or no stylesheet for ${name} in it`);
    return found;
  };
  return {
    assets,
    indexHtml: renderPageHtml({ title: 'Ledgerwire console', noscript: 'The Ledgerwire console needs JavaScript.', noindex: false }, entry('main', '.js'), entry('main', '.css')),
    connectHtml: renderPageHtml(
      { title: 'Connect TallyPrime', noscript: 'This page needs JavaScript to guide you through connecting TallyPrime.', noindex: true },
      entry('connect-main', '.js'),
      entry('connect-main', '.css'),
    ),
  };
}

/** A page's HTML shell: its title, the robots line (the connect page is never indexed), its entry's files. */
function renderPageHtml(page: { title: string; noscript: string; noindex: boolean }, script: string, style: string): string {
  const robots = page.noindex ? '\n<meta name="robots" content="noindex">' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">${robots}
<link rel="icon" href="data:,">
<title>${page.title}</title>
<link rel="stylesheet" href="/console/assets/${style}">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body>
<div id="app"><noscript>${page.noscript}</noscript></div>
</body>
</html>
`;
}
