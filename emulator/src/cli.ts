// `npm run emulator -- …`: starts the books emulator until interrupted.
import fs from 'node:fs';
import { invocationDir, parseCliOptions, USAGE } from './config/cli-options.js';
import { startEmulator } from './emulator.js';

/** TallyPrime writes export files in UTF-16LE (with a BOM) or UTF-8; both are read. */
function readXmlFile(file: string): string {
  const bytes = fs.readFileSync(file);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  const text = bytes.toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliOptions(process.argv.slice(2), invocationDir());
  } catch (error) {
    console.error((error as Error).message);
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  let load;
  try {
    load = options.load.map(({ file, name }) => ({ xml: readXmlFile(file), ...(name === undefined ? {} : { name }) }));
  } catch (error) {
    console.error(`cannot read a --load file: ${(error as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const emulator = await startEmulator({ ...options, load, countCollectorPauses: true });
  console.log(`books emulator: XML on ${emulator.xmlUrl}, control API on ${emulator.controlUrl}, data in ${options.dataDir}`);
  const shutdown = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

void main();
