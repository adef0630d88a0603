// relay/README.md traces the voucher-write and send flows file by file: every repository path it
// names must exist, so the map cannot drift from the tree unnoticed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readme = fs.readFileSync(path.join(root, 'relay/README.md'), 'utf8');
const PATH = /`((?:relay|connector|emulator|shared|build|test|docs)\/[\w./-]+|import-floors\.json)`/g;
const named = [...new Set([...readme.matchAll(PATH)].map((match) => match[1] ?? ''))];

describe('relay/README.md', () => {
  it('names the files of both flows', () => {
    expect(named.length).toBeGreaterThan(50);
    for (const step of ['relay/src/bridge/routes/voucher-write-routes.ts', 'relay/src/bridge/services/jobs/render-job-xml.ts', 'connector/src/core/jobs/job-runner.ts', 'relay/src/messaging/services/messages/queue-message.ts', 'relay/src/messaging/workers/dispatch/dispatch-worker.ts']) {
      expect(named).toContain(step);
    }
  });

  it('names only paths that exist', () => {
    // relay/dist is what `npm run build` writes: named, but not in the repository.
    const missing = named.filter((name) => !name.startsWith('relay/dist/') && !fs.existsSync(path.join(root, name)));
    expect(missing).toEqual([]);
  });
});
