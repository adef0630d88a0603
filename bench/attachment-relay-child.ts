// The relay of `npm run bench -- attachments`, in a process of its own so that its memory is the
// relay's alone (the load generator's request bodies are not in it). Started with fork(): it reports
// its port, samples its resident set and heap every 10 ms, and answers {peak} when asked.
import type { AddressInfo } from 'node:net';
import { buildApp, loadConfig } from '@ledgerwire/relay';

const sample = { rss: 0, heap: 0 };
const baseline = process.memoryUsage();

async function main(): Promise<void> {
  const config = loadConfig({ ...(process.env as Record<string, string>), LOG_LEVEL: 'silent' });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    sample.rss = Math.max(sample.rss, now.rss);
    sample.heap = Math.max(sample.heap, now.heapUsed + now.external + now.arrayBuffers);
  }, 10);
  timer.unref();
  process.on('message', (message: { kind: string }) => {
    if (message.kind === 'peak') process.send?.({ kind: 'peak', rss: sample.rss, heap: sample.heap, baselineRss: baseline.rss });
    if (message.kind === 'reset') {
      const now = process.memoryUsage();
      sample.rss = now.rss;
      sample.heap = now.heapUsed + now.external + now.arrayBuffers;
      process.send?.({ kind: 'reset' });
    }
    if (message.kind === 'stop') void app.close().then(() => process.exit(0));
  });
  process.send?.({ kind: 'ready', port: (app.server.address() as AddressInfo).port });
}

void main();
