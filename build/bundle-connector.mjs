// Bundles the connector's Electron shell (main + preload, with the plain-Node core inside) into
// connector/dist/app, the folder electron-builder packages (build/electron-builder.json).
// Usage: node build/bundle-connector.mjs [outDir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'connector/dist/app'));
const connectorPackage = JSON.parse(fs.readFileSync(path.join(root, 'connector/package.json'), 'utf8'));
// Native modules cannot be bundled: electron-builder installs and rebuilds them for Electron.
const nativeDependencies = ['better-sqlite3'];

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

await build({
  entryPoints: {
    main: path.join(root, 'connector/src/electron-main/main.ts'),
    preload: path.join(root, 'connector/src/electron-main/preload.ts'),
  },
  outdir: outDir,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // esbuild is only reached when the page is bundled at start, which the package never does (pre-built).
  external: ['electron', 'esbuild', ...nativeDependencies],
  sourcemap: true,
  logLevel: 'warning',
});

// The local page (Preact, built with @ledgerwire/ui-kit) pre-built into ui/, which main.js serves
// (startConnectorService's uiPageDir): the package has no esbuild to bundle it at start. The same
// module as `npm run connector` bundles it, loaded through tsx, so both get the same page.
const { tsImport } = await import('tsx/esm/api');
const { writePageFiles } = await tsImport(path.join(root, 'connector/src/ui/page-bundle.ts'), import.meta.url);
const pageFiles = await writePageFiles(path.join(outDir, 'ui'));

const dependencies = Object.fromEntries(
  nativeDependencies.map((name) => [name, connectorPackage.dependencies?.[name] ?? '*']),
);
fs.writeFileSync(
  path.join(outDir, 'package.json'),
  `${JSON.stringify(
    {
      name: 'ledgerwire-connector',
      productName: 'Ledgerwire Connector',
      version: connectorPackage.version,
      description: 'Connects TallyPrime on this computer to Ledgerwire',
      author: 'Ledgerwire',
      main: 'main.js',
      dependencies,
    },
    null,
    2,
  )}\n`,
);
process.stdout.write(`Bundled the connector shell into ${path.relative(root, outDir)} (local page: ${pageFiles.join(', ')})\n`);
