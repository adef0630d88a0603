// `npm run emulator -- …`: starts the books emulator until interrupted.
import { invocationDir, parseCliOptions, USAGE } from './config/cli-options.js';
import { startEmulator } from './emulator.js';

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
  const emulator = await startEmulator(options);
  console.log(`books emulator: XML on ${emulator.xmlUrl}, control API on ${emulator.controlUrl}, data in ${options.dataDir}`);
  const shutdown = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

void main();
