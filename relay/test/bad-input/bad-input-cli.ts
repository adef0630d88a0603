// The long bad-input run: `npm run fuzz:bad-input -w relay -- [--requests N] [--seed S] [--transport http|inject]`.
// Runs the same seeded requests against a fresh relay on SQLite and, when PostgreSQL answers
// (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, in a schema of its own dropped
// afterwards), on PostgreSQL; prints the verdicts and exits 1 on any 5xx, hang, write by a refused
// request or status that differs between the databases.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startRelay } from '@ledgerwire/test-kit';
import { loadConfig } from '../../src/config/load-config.js';
import { BAD_INPUT_RELAY_ENV, runBadInput, verdictDifferences, type RunSummary } from './bad-input-run.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '12000' },
    seed: { type: 'string', default: '22002' },
    transport: { type: 'string', default: 'http' },
    'postgres-url': { type: 'string', default: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const requests = Number(values.requests);
const seed = Number(values.seed);
const transport = values.transport === 'inject' ? 'inject' : 'http';

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function onPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function runOn(kind: 'sqlite' | 'postgres'): Promise<RunSummary> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bad-input-'));
  const schema = `lw_bad_input_${randomBytes(6).toString('hex')}`;
  const url = values['postgres-url'];
  if (kind === 'postgres') await onPostgres(url, `create schema ${schema}`);
  const env: Record<string, string> = { DATA_DIR: dataDir, ...BAD_INPUT_RELAY_ENV, ...(kind === 'postgres' ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {}) };
  // The relay's settings come from this run's arguments, and this script owns (and drops) its database.
  const relay = await startRelay({ config: loadConfig(env) });
  const { app } = relay;
  try {
    const started = Date.now();
    const summary = await runBadInput(app, { seed, requests, transport, timeoutMs: 10_000 });
    process.stdout.write(
      `${kind}: ${summary.requests} requests over ${summary.operationsCovered}/${summary.operations} operations in ${((Date.now() - started) / 1000).toFixed(1)} s — ` +
        `${JSON.stringify(summary.byStatus)}; failures: ${summary.failures.length}\n`,
    );
    for (const failure of summary.failures.slice(0, 20)) process.stdout.write(`  ${JSON.stringify(failure)}\n`);
    return summary;
  } finally {
    await relay.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') await onPostgres(url, `drop schema if exists ${schema} cascade`);
  }
}

async function main(): Promise<number> {
  process.stdout.write(`bad input: seed ${seed}, ${requests} requests per database, over ${transport}\n`);
  const sqlite = await runOn('sqlite');
  let failed = sqlite.failures.length > 0;
  if (await postgresReachable(values['postgres-url'])) {
    const postgres = await runOn('postgres');
    const differences = verdictDifferences(sqlite, postgres);
    process.stdout.write(`same verdict on both databases: ${differences.length === 0 ? 'yes' : `no, ${differences.length} differ`}\n`);
    for (const difference of differences.slice(0, 20)) process.stdout.write(`  ${JSON.stringify(difference)}\n`);
    failed ||= postgres.failures.length > 0 || differences.length > 0;
  } else {
    process.stdout.write('PostgreSQL did not answer: SQLite only\n');
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
