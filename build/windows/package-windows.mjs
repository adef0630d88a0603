// `npm run package:windows`: the connector's Windows installer, built on Linux from the npm registry and
// Debian's packages alone — dist/windows/ledgerwire-connector-setup-<version>.exe, whose path is the last
// line printed. What goes in: the pinned Windows Node runtime (build/node-runtime.json) made into
// ledgerwire-connector.exe (windows-executable.mjs), the connector bundled with its page pre-built
// (connector-bundle.mjs), its icon and the third-party notices; NSIS's makensis (Debian's `nsis`) packs them
// with installer.nsi. The same inputs give the same bytes: every file is stamped with one time
// (SOURCE_DATE_EPOCH, or the connector's fixed release time), and esbuild, resedit and makensis are
// deterministic.
// Options: --version X (default: connector/package.json's), --compression lzma|zlib (default lzma; zlib
// builds in a sixth of the time, 50 % larger), --out DIR (default dist/windows).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nodeRuntime, NODE_RUNTIME_VERSION } from '../node-runtime.mjs';
import { bundleConnector, thirdPartyNotices } from './connector-bundle.mjs';
import { connectorExecutable, windowsVersion } from './windows-executable.mjs';
import { icoFromPng } from './windows-icon.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Files stamped with this time when SOURCE_DATE_EPOCH is not set (any fixed time does). */
const DEFAULT_FILE_TIME = Date.UTC(2026, 0, 1) / 1000;

function stampTimes(dir, seconds) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) stampTimes(full, seconds);
    fs.utimesSync(full, seconds, seconds);
  }
  fs.utimesSync(dir, seconds, seconds);
}

function makensisPath() {
  try {
    return execFileSync('sh', ['-c', 'command -v makensis'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error("makensis is not installed: on Debian or Ubuntu, `apt-get install nsis` (Debian's package builds 64-bit installers)");
  }
}

export async function packageWindows({ version, compression = 'lzma', outDir = path.join(root, 'dist/windows'), log = () => undefined } = {}) {
  const connectorVersion = version ?? JSON.parse(fs.readFileSync(path.join(root, 'connector/package.json'), 'utf8')).version;
  if (!/^\d+\.\d+\.\d+([-+][\w.]+)?$/.test(connectorVersion)) throw new Error(`--version must look like 1.2.3, not "${connectorVersion}"`);
  if (compression !== 'lzma' && compression !== 'zlib') throw new Error(`--compression must be lzma or zlib, not "${compression}"`);
  const makensis = makensisPath();
  const stage = path.join(outDir, `stage-${connectorVersion}`);
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(stage, { recursive: true });

  log(`Node.js ${NODE_RUNTIME_VERSION} for Windows from the npm registry`);
  const nodeExe = fs.readFileSync(await nodeRuntime('win-x64', { log }));
  const ico = icoFromPng(fs.readFileSync(path.join(root, 'connector/assets/icon.png')));
  fs.writeFileSync(path.join(stage, 'ledgerwire.ico'), ico);
  fs.writeFileSync(path.join(stage, 'ledgerwire-connector.exe'), connectorExecutable({ nodeExe, ico, version: connectorVersion, nodeVersion: NODE_RUNTIME_VERSION }));

  log('bundling the connector and its page');
  const nodeTarget = `node${NODE_RUNTIME_VERSION.split('.').slice(0, 2).join('.')}`;
  const { bundledInputs } = await bundleConnector({ root, appDir: path.join(stage, 'app'), version: connectorVersion, nodeTarget });
  fs.writeFileSync(
    path.join(stage, 'THIRD-PARTY-NOTICES.txt'),
    thirdPartyNotices({ root, bundledInputs, nodeVersion: NODE_RUNTIME_VERSION, pageInputs: ['node_modules/preact/package.json'] }),
  );
  const epoch = process.env.SOURCE_DATE_EPOCH;
  stampTimes(stage, epoch && /^\d+$/.test(epoch) ? Number(epoch) : DEFAULT_FILE_TIME);

  const outFile = path.join(outDir, `ledgerwire-connector-setup-${connectorVersion}.exe`);
  log(`packing with makensis (${compression})`);
  execFileSync(
    makensis,
    [
      '-V2',
      '-INPUTCHARSET',
      'UTF8',
      `-DVERSION=${connectorVersion}`,
      `-DWINVERSION=${windowsVersion(connectorVersion).join('.')}`,
      `-DSTAGE=${stage}`,
      `-DOUTFILE=${outFile}`,
      `-DCOMPRESSOR=${compression}`,
      path.join(root, 'build/windows/installer.nsi'),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const bytes = fs.readFileSync(outFile);
  return { outFile, version: connectorVersion, size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex'), stage };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { version: { type: 'string' }, compression: { type: 'string' }, out: { type: 'string' } }, strict: true });
  try {
    const result = await packageWindows({
      ...(values.version ? { version: values.version } : {}),
      ...(values.compression ? { compression: values.compression } : {}),
      ...(values.out ? { outDir: path.resolve(values.out) } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stderr.write(`${(result.size / 1024 / 1024).toFixed(1)} MB, sha256 ${result.sha256}\n`);
    process.stdout.write(`${result.outFile}\n`);
  } catch (error) {
    process.stderr.write(`package:windows failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
