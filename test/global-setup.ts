// Runs once before every suite: finds out whether PostgreSQL, Chromium and Wine (with NSIS) are here,
// tells the suites through provide(), and says loudly what will be skipped. Under REQUIRE_POSTGRES=1 /
// REQUIRE_BROWSER=1 / REQUIRE_WINE=1 a missing one fails the run instead.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { MIGRATION_LOCK_KEY } from '@ledgerwire/relay';
import type { TestProject } from 'vitest/node';
import { chromiumPresent, testEnvironment, windowsToolsMissing } from './test-environment-config.js';

async function postgresAnswers(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function banner(text: string): void {
  const line = '!'.repeat(78);
  process.stderr.write(`\n${line}\n!! ${text}\n${line}\n\n`);
}

/** Test schemas are named lw_test_<run id>_…; the run id is the start time, so stale runs are recognisable. */
const SCHEMA_PREFIX = 'lw_test_';
const STALE_AFTER_MS = 3 * 60 * 60 * 1000;

async function dropSchemas(url: string, select: (runId: number) => boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace where nspname like '${SCHEMA_PREFIX}%'`,
    );
    // Under the migration lock: a relay migrating in another run must not see a schema vanish mid-scan.
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    for (const { name } of rows) {
      const runId = Number.parseInt(name.slice(SCHEMA_PREFIX.length).split('_')[0] ?? '', 36);
      if (Number.isFinite(runId) && select(runId)) await client.query(`drop schema if exists ${name} cascade`);
    }
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  } finally {
    await client.end();
  }
}

/**
 * `npm run build`'s programs, built here when stale before any suite starts: the process-level suites
 * (fault matrix, load balancer, demo) run the compiled relay, emulator and connector, and relays started
 * from the sources serve the console as the build wrote it.
 */
function buildWhenStale(): void {
  const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../build/build.mjs');
  const result = spawnSync(process.execPath, [script, '--when-stale'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed before the tests: ${result.stderr}`);
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  buildWhenStale();
  const problem = await postgresAnswers(testEnvironment.postgresUrl);
  if (problem !== undefined) {
    if (testEnvironment.requirePostgres) {
      throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${testEnvironment.postgresUrl} does not answer: ${problem}`);
    }
    banner(`SKIPPING every PostgreSQL suite: ${testEnvironment.postgresUrl} does not answer (${problem})`);
  }
  const browser = chromiumPresent();
  if (!browser) {
    if (testEnvironment.requireBrowser) {
      throw new Error(`REQUIRE_BROWSER=1 but Chromium is not at ${testEnvironment.chromiumPath}`);
    }
    banner(`SKIPPING every browser suite: no Chromium at ${testEnvironment.chromiumPath}`);
  }
  const windowsMissing = windowsToolsMissing();
  if (windowsMissing.length > 0) {
    if (testEnvironment.requireWine) throw new Error(`REQUIRE_WINE=1 but ${windowsMissing.join(' and ')} cannot be run here (apt-get install wine nsis)`);
    banner(`SKIPPING the Windows installer suite: ${windowsMissing.join(' and ')} not installed (apt-get install wine nsis)`);
  }
  project.provide('wineAvailable', windowsMissing.length === 0);
  project.provide('postgresAvailable', problem === undefined);
  project.provide('postgresUrl', testEnvironment.postgresUrl);
  project.provide('browserAvailable', browser);
  // Each test gets its own schema, and schemas are dropped only when the whole run ends: Kysely's
  // migrator introspects every schema, and a schema dropped mid-scan by a parallel test breaks it.
  const runId = Date.now();
  project.provide('testRunId', runId.toString(36));
  if (problem !== undefined) return;
  await dropSchemas(testEnvironment.postgresUrl, (id) => id < runId - STALE_AFTER_MS);
  return () => dropSchemas(testEnvironment.postgresUrl, (id) => id === runId);
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAvailable: boolean;
    postgresUrl: string;
    browserAvailable: boolean;
    wineAvailable: boolean;
    testRunId: string;
  }
}
