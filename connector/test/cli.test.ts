// The CLI as a user runs it: spawned processes, a temp data directory, a real relay and the emulator.
// enroll prints the connector id; pair pairs; run works until SIGTERM and exits cleanly, and only once
// per data directory; status reports; and a connector killed (SIGKILL) between the books' import and the result report books nothing twice.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import { transactionSettled } from './helpers/connected-connector.js';
import { runConnectorCli, spawnConnectorCli } from './helpers/connector-cli.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from './helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';
import { documentsByEndpoint } from './helpers/voucher-documents.js';

let relay: CustomerRelay;
let books: TestEmulator;
let company: { guid: string; name: string };

beforeAll(async () => {
  relay = await startCustomerRelay({ env: { CONNECTOR_CLAIM_INTERVAL_MS: '200' } });
  books = await startTestEmulator();
  company = (await books.companies())[0] as { guid: string; name: string };
});
afterAll(async () => {
  await relay?.close();
  await books?.close();
});

/** A command that prints one JSON document on stdout, parsed. */
async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; json: any; stderr: string }> {
  const { code, stdout, stderr } = await runConnectorCli(args, env);
  try {
    return { code, json: JSON.parse(stdout), stderr };
  } catch {
    throw new Error(`not JSON (exit ${code}): ${stdout}\n${stderr}`);
  }
}

type Running = { child: ChildProcessWithoutNullStreams; ready: Promise<any>; exited: Promise<number | null> };

function startRun(dataDir: string, env: Record<string, string> = {}): Running {
  const child = spawnConnectorCli(['run', '--data', dataDir], env);
  let stdout = '';
  const ready = new Promise<any>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      try {
        resolve(JSON.parse(stdout));
      } catch {
        // not complete yet
      }
    });
    child.on('close', (code) => reject(new Error(`run exited early (${code})`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  ready.catch(() => undefined);
  return { child, ready, exited };
}

// Each command is one node process running the compiled connector (so a SIGKILL kills the connector itself).
describe('connector CLI', { timeout: 240_000 }, () => {
  it('enrolls, pairs, runs until SIGTERM and reports its status', async () => {
    const dataDir = tempDataDir();
    const companyId = relay.companyIds[0] as number;
    const enrolled = await runCli(['enroll', '--relay', relay.baseUrl, '--token', relay.customerToken, '--books', books.xmlUrl, '--name', 'front-desk-pc', '--data', dataDir]);
    expect(enrolled.code).toBe(0);
    expect(enrolled.json).toMatchObject({ success: true, connector_id: expect.stringMatching(/^con_/), machine_name: 'front-desk-pc' });
    expect(fs.statSync(path.join(dataDir, 'connector.db')).mode & 0o777).toBe(0o600);

    const paired = await runCli(['pair', '--company-id', String(companyId), '--books-company', company.name, '--data', dataDir]);
    expect(paired).toMatchObject({ code: 0, json: { success: true, company_id: companyId, books_company_guid: company.guid } });

    const idle = await runCli(['status', '--data', dataDir]);
    expect(idle.json).toMatchObject({ running: false, relay: { state: 'stopped' }, books: { running: true }, pairings: [{ companyId, confirmed: true, open: true }] });

    const run = startRun(dataDir);
    const started = await run.ready;
    expect(started.ui_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    // A second `run` on the same data directory is refused in words; the first goes on.
    const second = await runCli(['run', '--data', dataDir]);
    expect(second.code).toBe(1);
    expect(second.json.error).toBe(`Another connector is already running with the data directory ${dataDir} (process ${started.pid}). Stop it first, or give this one a data directory of its own with --data.`);
    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('C1').journals);
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId);
    expect(transaction.status).toBe('completed');
    const live = await eventually('status to show the running connector', async () => {
      const status = await runCli(['status', '--data', dataDir]);
      return status.json.running && status.json.relay.state === 'online' && status.json.queue.done >= 1 ? status.json : undefined;
    });
    // The same words as the local page: only the jobs handed to this connector are counted.
    expect(live).toMatchObject({
      books: { running: true },
      queue: { waiting: 0, unreported: 0, description: expect.stringMatching(/^No jobs here waiting for the books \(\d+ done\)\.$/) },
      pairings: [{ companyId, open: true }],
    });

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'status.json'))).toBe(false);
  });

  it('books once when the connector is killed between the import and the result report', async () => {
    const dataDir = tempDataDir();
    const companyId = relay.companyIds[0] as number;
    await runCli(['enroll', '--relay', relay.baseUrl, '--token', relay.customerToken, '--books', books.xmlUrl, '--name', 'kill-pc', '--data', dataDir]);
    await runCli(['pair', '--company-id', String(companyId), '--books-company', company.guid, '--data', dataDir]);
    const first = startRun(dataDir);
    await first.ready;
    // The books apply the import, cut the answer, then hang: nothing looks at the job again before the kill.
    await books.control('POST', '/faults', { kind: 'hang-after-import' });
    const before = (await books.vouchers(company.guid)).length;
    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('K2').journals);
    await eventually('the books to import the voucher', async () => (await books.vouchers(company.guid)).length === before + 1);
    first.child.kill('SIGKILL');
    await first.exited;
    expect((await relay.api('GET', `/api/v1/transactions/${acceptance.transaction_id}?company_id=${companyId}`)).transaction.status).not.toBe('completed');
    await books.control('POST', '/faults/clear');

    const second = startRun(dataDir);
    await second.ready;
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId);
    expect(transaction.status).toBe('completed');
    const after = await books.vouchers(company.guid);
    expect(after.length).toBe(before + 1);
    expect(after.filter((v) => v.guid === transaction.books_voucher_guid)).toHaveLength(1);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('explains a bad command, a wrong token and pairing before enrolling in words', async () => {
    const dataDir = tempDataDir();
    const usage = await runCli(['enroll', '--data', dataDir]);
    expect(usage.code).toBe(2);
    expect(usage.json.error).toMatch(/--relay is required/);
    const wrong = await runCli(['enroll', '--relay', relay.baseUrl, '--token', 'not-a-token', '--data', dataDir]);
    expect(wrong.code).toBe(1);
    expect(wrong.json.error).toMatch(/did not accept this setup code: This code was not accepted: check it was typed as given/);
    const wrongToken = await runCli(['enroll', '--relay', relay.baseUrl, '--token', 'lwct_not-a-real-token', '--data', dataDir]);
    expect(wrongToken.json.error).toMatch(/did not accept this customer token/);
    // Pairing before enrolling says so first, even with nothing answering at the books' address.
    const unenrolled = await runCli(['pair', '--company-id', '1', '--books-company', company.name, '--data', dataDir, '--books', 'http://127.0.0.1:9']);
    expect(unenrolled.code).toBe(1);
    expect(unenrolled.json.error).toMatch(/not enrolled yet: enrol it with the code from your software provider first/);
  });
});
