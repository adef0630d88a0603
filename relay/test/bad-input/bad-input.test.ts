// The generated bad-input suite, trimmed for `npm test` (the long run is `npm run fuzz:bad-input -w
// relay`): seeded requests over every operation of the OpenAPI document, on SQLite and PostgreSQL —
// no 5xx, no hang, no row written for a refused request, and the same status on both databases.
import { afterAll, describe, expect, it } from 'vitest';
import { availableDatabaseKinds, type DatabaseKind, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { BAD_INPUT_RELAY_ENV, runBadInput, verdictDifferences, type RunSummary } from './bad-input-run.js';

const SEED = 22_002;
const REQUESTS = 1_200;

describe('generated bad input', () => {
  const runs = new Map<DatabaseKind, RunSummary>();
  const relays: TestRelay[] = [];
  afterAll(async () => {
    for (const relay of relays) await relay.close();
  });

  it.each(availableDatabaseKinds())('%s: no 5xx, no hang, nothing written for a refused request', async (kind) => {
    const relay = await startRelay({ database: kind, env: { ...BAD_INPUT_RELAY_ENV } });
    relays.push(relay);
    const summary = await runBadInput(relay.app, { seed: SEED, requests: REQUESTS, timeoutMs: 10_000 });
    runs.set(kind, summary);
    expect(summary.operationsCovered).toBe(summary.operations);
    expect(summary.operations).toBeGreaterThan(100);
    expect(summary.failures, JSON.stringify(summary.failures.slice(0, 10), null, 1)).toEqual([]);
    // Most requests are refused (a few mutations leave a request valid: an extra field is ignored).
    expect(summary.byStatus['4xx'] ?? 0).toBeGreaterThan(REQUESTS * 0.7);
  }, 300_000);

  // Without PostgreSQL (announced by the global setup, and a failure under REQUIRE_POSTGRES=1) there is
  // nothing to compare with.
  it.skipIf(!availableDatabaseKinds().includes('postgres'))('judges every request alike on both databases', () => {
    const [sqlite, postgres] = [runs.get('sqlite'), runs.get('postgres')];
    if (!sqlite || !postgres) throw new Error('a database run did not finish: see its own test above');
    const differences = verdictDifferences(sqlite, postgres);
    expect(differences, JSON.stringify(differences.slice(0, 10), null, 1)).toEqual([]);
  });
});
