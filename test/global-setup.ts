// Runs once before every suite: finds out whether PostgreSQL and Chromium are here, tells the suites
// through provide(), and says loudly what will be skipped. Under REQUIRE_POSTGRES=1 / REQUIRE_BROWSER=1
// a missing service fails the run instead.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { chromiumPresent, testEnvironment } from './test-environment-config.js';

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

export default async function setup(project: TestProject): Promise<void> {
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
  project.provide('postgresAvailable', problem === undefined);
  project.provide('postgresUrl', testEnvironment.postgresUrl);
  project.provide('browserAvailable', browser);
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAvailable: boolean;
    postgresUrl: string;
    browserAvailable: boolean;
  }
}
