// The connector's own database backed up while it works and restored: `connector backup DIR` (the CLI,
// a process of its own) copies the live state mid-flow — some jobs imported, some held at the books,
// some still to come — the connector stops, its data directory is replaced by the copy, and it starts
// again. Its restored queue re-runs jobs the books already have: every voucher is still in the books
// exactly once and every transaction ends completed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorHandle } from '../src/index.js';
import { enrolAndPair, startConnector, transactionSettled } from './helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from './helpers/test-emulator.js';
import { availableDatabaseKinds, eventually, runCli } from '@ledgerwire/test-kit';
import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';
import { DEMO_DATE } from './helpers/voucher-documents.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
// The compiled connector, as users run it (the test run's global setup builds it when stale).
const cli = path.join(root, 'connector/dist/cli.mjs');

function journal(tag: string): Record<string, unknown> {
  return {
    voucher_number: `JV-${tag}`,
    voucher_type: 'Journal',
    party_ledger: 'Office Rent',
    date: DEMO_DATE,
    narration: `backup-restore ${tag}`,
    ledger_entries: [
      { ledger_name: 'Office Rent', amount: 75, is_debit: true },
      { ledger_name: 'Freight & Cartage', amount: 75, is_debit: false },
    ],
  };
}

/** The connector's CLI through the kit's runner; its commands here print JSON. */
async function runConnectorJson(args: string[]): Promise<{ code: number | null; json: any; stderr: string }> {
  const { code, stdout, stderr } = await runCli(cli, { args, cwd: root, env: { LEDGERWIRE_LOG_LEVEL: 'warn' } });
  try {
    return { code, json: JSON.parse(stdout), stderr };
  } catch {
    throw new Error(`not JSON (exit ${code}): ${stdout}\n${stderr}`);
  }
}

describe.each(availableDatabaseKinds())('connector backup and restore (relay on %s)', (database) => {
  let relay: CustomerRelay;
  let books: TestEmulator;
  let connector: ConnectorHandle | undefined;
  const dirs: string[] = [];

  beforeEach(async () => {
    relay = await startCustomerRelay({ database, env: { CONNECTOR_CLAIM_INTERVAL_MS: '200', CONNECTOR_HEARTBEAT_MS: '1000' } });
    books = await startTestEmulator();
  });
  afterEach(async () => {
    await connector?.stop();
    connector = undefined;
    await relay.close();
    await books.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores a copy taken mid-flow without booking anything twice, and every transaction completes', async () => {
    const dataDir = tempDataDir();
    const backupDir = path.join(tempDataDir('lw-connector-backup-'), 'copy');
    dirs.push(dataDir, path.dirname(backupDir));
    // Small import requests, so the flow has many steps to be caught between.
    connector = await startConnector(books, dataDir, { importBatch: 3 });
    const company = await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    const before = (await books.vouchers(company.guid)).length;
    const post = async (tag: string) => (await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, journal(tag))).transaction_id as string;
    const status = async (jobId: string) => (await relay.api('GET', `/api/v1/transactions/${jobId}?company_id=${companyId}`)).transaction.status as string;

    // Imported and reported before the copy.
    const early: string[] = [];
    for (let i = 1; i <= 6; i += 1) early.push(await post(`A${i}`));
    for (const jobId of early) expect((await transactionSettled(relay, jobId, companyId)).status).toBe('completed');

    // Held at the books (as behind a TallyPrime dialog) and queued behind it when the copy is taken.
    await books.control('POST', '/faults', { kind: 'stall-next' });
    const held: string[] = [];
    for (let i = 1; i <= 9; i += 1) held.push(await post(`B${i}`));
    await eventually('the connector to hold every B job, the first at the books', () => {
      const queue = connector?.status().queue;
      return queue !== undefined && queue.importing >= 1 && queue.waiting + queue.importing === 9;
    });
    const backup = await runConnectorJson(['backup', backupDir, '--data', dataDir]);
    expect(backup).toMatchObject({ code: 0, json: { success: true, target: backupDir, database: 'connector.db' } });
    expect(backup.json.database_bytes).toBeGreaterThan(0);
    expect(fs.readdirSync(backupDir).sort()).toEqual(['backup.json', 'connector.db']);
    expect(fs.statSync(path.join(backupDir, 'connector.db')).mode & 0o777).toBe(0o600);

    // After the copy: the held jobs go in, more jobs come, and the connector stops mid-way through them.
    await books.control('POST', '/faults/clear');
    for (const jobId of held) expect((await transactionSettled(relay, jobId, companyId)).status).toBe('completed');
    const late: string[] = [];
    for (let i = 1; i <= 9; i += 1) late.push(await post(`C${i}`));
    await eventually('the first C job to complete', async () => (await status(late[0] as string)) === 'completed');
    await connector.stop();
    connector = undefined;

    // The data directory is replaced by the copy, and the connector starts on it.
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.renameSync(backupDir, dataDir);
    const restoredLog: string[] = [];
    connector = await startConnector(books, dataDir, { importBatch: 3 }, (record) => restoredLog.push(record.message));
    const all = [...early, ...held, ...late];
    for (const jobId of all) {
      const transaction = await transactionSettled(relay, jobId, companyId);
      expect({ jobId, status: transaction.status, error: transaction.error_message }).toEqual({ jobId, status: 'completed', error: null });
    }
    // The restored queue (the B jobs, written 'importing' when received) has run again and is empty.
    await eventually('the restored queue to empty', () => {
      const queue = connector?.status().queue;
      return queue !== undefined && queue.waiting + queue.importing + queue.unreported === 0;
    });

    const vouchers = await books.vouchers(company.guid);
    expect(vouchers.length - before).toBe(all.length);
    for (const tag of [...'123456'].map((n) => `A${n}`).concat([...'123456789'].flatMap((n) => [`B${n}`, `C${n}`]))) {
      expect(vouchers.filter((v) => v.narration === `backup-restore ${tag}`), tag).toHaveLength(1);
    }
    for (const jobId of all) {
      const { transaction } = await relay.api('GET', `/api/v1/transactions/${jobId}?company_id=${companyId}`);
      expect(vouchers.filter((v) => v.guid === transaction.books_voucher_guid), jobId).toHaveLength(1);
    }
    // The restored B jobs were sent again, one by one, and the books matched each by its REMOTEID.
    for (const jobId of held) {
      expect(restoredLog, jobId).toContain(`job ${jobId}: its earlier import had gone in; the books matched its REMOTEID, nothing was booked twice`);
    }
  });
});

describe('connector backup refusals', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the data directory itself, a directory that is not empty, no directory, and a data directory never used', async () => {
    const dataDir = tempDataDir();
    const occupied = tempDataDir('lw-connector-occupied-');
    const fresh = path.join(tempDataDir('lw-connector-fresh-'), 'copy');
    dirs.push(dataDir, occupied, path.dirname(fresh));
    fs.writeFileSync(path.join(occupied, 'something'), 'x');
    const same = await runConnectorJson(['backup', dataDir, '--data', dataDir]);
    expect(same).toMatchObject({ code: 1, json: { success: false, error: "The backup directory must not be the connector's own data directory" } });
    const full = await runConnectorJson(['backup', occupied, '--data', dataDir]);
    expect(full).toMatchObject({ code: 1, json: { success: false, error: `${occupied} is not empty: back up into a new or empty directory` } });
    const missing = await runConnectorJson(['backup', '--data', dataDir]);
    expect(missing).toMatchObject({ code: 2, json: { success: false, error: 'backup takes one directory' } });
    const unused = await runConnectorJson(['backup', fresh, '--data', dataDir]);
    expect(unused).toMatchObject({ code: 1, json: { success: false, error: `There is no connector database at ${path.join(dataDir, 'connector.db')}` } });
    expect(fs.existsSync(fresh)).toBe(false);
  });
});
