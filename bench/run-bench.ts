// `npm run bench -- <name>`: runs one benchmark by name (or lists them). Add a benchmark by adding
// its module to BENCHMARKS.
const BENCHMARKS: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  'emulator-import': () => import('./emulator-import.js'),
  send: () => import('./send-path.js'),
  'bridge-write': () => import('./bridge-write.js'),
  dispatch: () => import('./dispatch-throughput.js'),
  attachments: () => import('./attachment-memory.js'),
  'connector-fleet': () => import('./connector-fleet.js'),
  'connector-pipeline': () => import('./connector-pipeline.js'),
  'connector-sync': () => import('./connector-sync.js'),
  connector: () => import('./connector-ratios.js'),
  'windows-connector': () => import('./windows-connector.js'),
  'relay-start': () => import('./relay-start.js'),
};

async function main(): Promise<void> {
  const name = process.argv[2];
  const load = name ? BENCHMARKS[name] : undefined;
  if (!load) {
    console.error(`usage: npm run bench -- <${Object.keys(BENCHMARKS).join('|')}>`);
    process.exitCode = 2;
    return;
  }
  await (await load()).run();
}

void main();
