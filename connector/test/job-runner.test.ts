// The job runner against the emulator over real HTTP: batches split back per job, errors mapped to the
// catalogue, and never a voucher booked twice — not when the books cut the connection after importing,
// not when the connector dies between sending an import and recording its outcome, not on redelivery.
import { randomUUID } from 'node:crypto';
import type { AssignedJob } from '@ledgerwire/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BooksClient } from '../src/core/books/books-client.js';
import { BooksOperations } from '../src/core/books/books-operations.js';
import type { BooksJobAccess } from '../src/core/jobs/books-job-access.js';
import { JobRunner } from '../src/core/jobs/job-runner.js';
import { JobStore, type StoredJob } from '../src/core/state/job-store.js';
import { openLocalDatabase, type LocalDatabase } from '../src/core/state/local-database.js';
import { createLogger } from '../src/core/support/logger.js';
import { journalDocument, ledgerJob, voucherActionJob, voucherJob } from './helpers/job-fixtures.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from './helpers/test-emulator.js';

let books: TestEmulator;
let company: { guid: string; name: string };
const quiet = createLogger([], 'silent');

beforeAll(async () => {
  books = await startTestEmulator();
  company = (await books.companies())[0] as { guid: string; name: string };
});
afterAll(async () => books?.close());

type Rig = { db: LocalDatabase; jobs: JobStore; runner: JobRunner; client: BooksClient; settled: StoredJob[]; dataDir: string };
let rigs: Rig[] = [];

function rig(dataDir = tempDataDir(), access?: (real: BooksOperations) => BooksJobAccess, batchSize = 10): Rig {
  const db = openLocalDatabase(dataDir);
  const jobs = new JobStore(db);
  const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 10_000 });
  const operations = new BooksOperations(client);
  const settled: StoredJob[] = [];
  const runner = new JobRunner({ jobs, books: access ? access(operations) : operations, log: quiet, batchSize, onSettled: (jobs) => settled.push(...jobs) });
  const made = { db, jobs, runner, client, settled, dataDir };
  rigs.push(made);
  return made;
}

async function closeRig(r: Rig): Promise<void> {
  await r.runner.stop();
  r.client.close();
  r.db.close();
  rigs = rigs.filter((x) => x !== r);
}

beforeEach(async () => {
  await books.control('POST', '/faults/clear');
});
afterEach(async () => {
  for (const r of rigs) await closeRig(r);
});

async function bookedWith(remoteId: string) {
  return (await books.vouchers(company.guid)).filter((v) => v.remoteId === remoteId);
}

/** Runs the job once, with nothing in the way; returns its outcome. */
async function runToOutcome(r: Rig, job: AssignedJob) {
  r.jobs.receive([job]);
  await r.runner.wake();
  return r.jobs.get(job.job_id)?.outcome;
}

/** Runs the job once with `fault` armed: the books apply it and its answer is lost, its outcome unknown. */
async function runLosingTheAnswer(r: Rig, job: AssignedJob, fault: 'drop-after-import' | 'cut-import-answer' = 'drop-after-import'): Promise<void> {
  r.jobs.receive([job]);
  await books.control('POST', '/faults', { kind: fault });
  await r.runner.wake();
  expect(r.jobs.get(job.job_id)?.state).toBe('importing');
}

describe('job runner', () => {
  it('imports consecutive jobs in one request and gives each its own GUID', async () => {
    const r = rig();
    const jobs = [1, 2, 3, 4].map((n) => voucherJob(company, journalDocument(`JB-${n}`)));
    r.jobs.receive(jobs);
    await r.runner.wake();
    expect(r.client.requestCounts()).toEqual({ import: 1 });
    for (const job of jobs) {
      const stored = r.jobs.get(job.job_id);
      const booked = await bookedWith(job.job_id);
      expect(booked).toHaveLength(1);
      expect(stored?.outcome).toMatchObject({ status: 'completed', books_voucher_guid: booked[0]?.guid });
    }
  });

  it('imports consecutive master writes in one request and completes each, none sent twice', async () => {
    const r = rig();
    const names = [1, 2, 3].map((n) => `Batch Party ${n} ${randomUUID().slice(0, 8)}`);
    const jobs = names.map((name) => ledgerJob(company, name));
    r.jobs.receive(jobs);
    await r.runner.wake();
    // One request: sent again alone (as before), each master would also have been altered once more.
    expect(r.client.requestCounts()).toEqual({ import: 1 });
    for (const job of jobs) expect(r.jobs.get(job.job_id)?.outcome).toEqual({ status: 'completed', books_master_id: null });
    const ledgers = await books.control<{ name: string }[]>('GET', `/companies/${encodeURIComponent(company.guid)}/masters?type=ledger`);
    for (const name of names) expect(ledgers.filter((l) => l.name === name)).toHaveLength(1);
  });

  it('alters consecutive vouchers in one request and deletes them one by one, completing every job with its voucher', async () => {
    const r = rig();
    const documents = [1, 2, 3].map((n) => journalDocument(`JA-${n}-${randomUUID().slice(0, 6)}`));
    const created = documents.map((document) => voucherJob(company, document));
    r.jobs.receive(created);
    await r.runner.wake();
    const guids = created.map((job) => (r.jobs.get(job.job_id)?.outcome as { books_voucher_guid: string }).books_voucher_guid);

    const alters = documents.map((document, i) => voucherActionJob(company, { ...document, narration: `altered ${i}` }, 'Alter', guids[i] as string, created[i]?.job_id));
    r.jobs.receive(alters);
    await r.runner.wake();
    for (const [i, job] of alters.entries()) expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed', books_voucher_guid: guids[i] });
    const inBooks = await books.vouchers(company.guid);
    for (const [i, guid] of guids.entries()) expect(inBooks.filter((v) => v.guid === guid).map((v) => v.narration)).toEqual([`altered ${i}`]);

    const deletes = documents.map((document, i) => voucherActionJob(company, document, 'Delete', guids[i] as string));
    r.jobs.receive(deletes);
    await r.runner.wake();
    for (const [i, job] of deletes.entries()) expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed', books_voucher_guid: guids[i] });
    expect((await books.vouchers(company.guid)).filter((v) => guids.includes(v.guid))).toEqual([]);
    // One request for the creations, one for the alterations, one per deletion (they never share one).
    expect(r.client.requestCounts()).toEqual({ import: 5 });
  });

  it('splits a partly refused master batch: the good ones completed and in the books once, the bad one explained', async () => {
    const r = rig();
    const suffix = randomUUID().slice(0, 8);
    const good = ledgerJob(company, `Split Party ${suffix}`);
    const bad = ledgerJob(company, `Orphan Party ${suffix}`, { parent: 'No Such Group' });
    r.jobs.receive([good, bad]);
    await r.runner.wake();
    expect(r.jobs.get(good.job_id)?.outcome).toEqual({ status: 'completed', books_master_id: null });
    expect(r.jobs.get(bad.job_id)?.outcome).toMatchObject({ status: 'failed', error_code: 'MASTER_NOT_FOUND' });
    const ledgers = await books.control<{ name: string }[]>('GET', `/companies/${encodeURIComponent(company.guid)}/masters?type=ledger`);
    expect(ledgers.filter((l) => l.name.endsWith(suffix)).map((l) => l.name)).toEqual([`Split Party ${suffix}`]);
  });

  it('splits a partly refused batch back per job: the good ones booked once, the bad one explained', async () => {
    const r = rig();
    const good1 = voucherJob(company, journalDocument('JP-1'));
    const bad = voucherJob(company, journalDocument('JP-2', 'No Such Ledger'));
    const good2 = voucherJob(company, journalDocument('JP-3'));
    r.jobs.receive([good1, bad, good2]);
    await r.runner.wake();
    for (const job of [good1, good2]) {
      const booked = await bookedWith(job.job_id);
      expect(booked).toHaveLength(1);
      expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed', books_voucher_guid: booked[0]?.guid });
    }
    expect(await bookedWith(bad.job_id)).toHaveLength(0);
    const outcome = r.jobs.get(bad.job_id)?.outcome;
    expect(outcome).toMatchObject({ status: 'failed', error_code: 'MASTER_NOT_FOUND' });
    expect(outcome?.status === 'failed' && outcome.error_message).toMatch(/"No Such Ledger" does not exist/);
    expect(outcome?.status === 'failed' && outcome.error_message).not.toMatch(/<|LINEERROR/);
  });

  it('refuses, without importing it, a voucher whose type the books have as another kind; the rest of the run goes in', async () => {
    const r = rig();
    // The types as a sync pass reads them (the check makes no request of its own).
    const operations = new BooksOperations(r.client);
    const [open] = (await operations.listCompanies()).filter((c) => c.guid === company.guid);
    await operations.streamVouchers(open!, 0, { from: '20260101', to: '20260101' }, () => undefined);
    const runner = new JobRunner({ jobs: r.jobs, books: operations, log: quiet, batchSize: 10, onSettled: () => undefined });
    const before = r.client.requestCounts();
    const journal = (tag: string) => ({ ...voucherJob(company, journalDocument(tag)), event_type: 'journal.create' });
    const good1 = journal('JT-1');
    const asReceipt = { ...voucherJob(company, journalDocument('JT-2')), event_type: 'receipt.create' };
    const good2 = journal('JT-3');
    r.jobs.receive([good1, asReceipt, good2]);
    await runner.wake();
    for (const job of [good1, good2]) expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed' });
    expect(r.jobs.get(asReceipt.job_id)?.outcome).toEqual({
      status: 'failed',
      error_code: 'VOUCHER_TYPE_MISMATCH',
      error_label: 'Voucher type of another kind',
      error_message: 'The voucher type "Journal" derives from Journal in the books: it would be booked as a journal, not a receipt. Use a voucher type of the receipt kind. Nothing was imported.',
    });
    expect(await bookedWith(asReceipt.job_id)).toHaveLength(0);
    // The two journals in one request, and nothing else.
    const after = r.client.requestCounts();
    expect(Object.fromEntries(Object.entries(after).map(([label, n]) => [label, n - (before[label] ?? 0)]).filter(([, n]) => n !== 0))).toEqual({ import: 1 });
  });

  it('books once when the connection drops after the books imported (outcome unknown, checked by REMOTEID)', async () => {
    const r = rig();
    const job = voucherJob(company, journalDocument('JD-1'));
    await runLosingTheAnswer(r, job);
    expect(await bookedWith(job.job_id)).toHaveLength(1);
    await r.runner.wake();
    const booked = await bookedWith(job.job_id);
    expect(booked).toHaveLength(1);
    expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed', books_voucher_guid: booked[0]?.guid });
  });

  it('books once when the books apply an import and their answer is cut short (outcome unknown, checked by REMOTEID)', async () => {
    const r = rig();
    const job = voucherJob(company, journalDocument('JC-1'));
    await runLosingTheAnswer(r, job, 'cut-import-answer');
    expect(r.runner.waitingReason).toMatch(/could not be read; whether it went in is checked/);
    await r.runner.wake();
    const booked = await bookedWith(job.job_id);
    expect(booked).toHaveLength(1);
    expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed', books_voucher_guid: booked[0]?.guid });
  });

  it('completes a deletion whose answer was lost when, sent again, the books say the voucher (or master) is gone', async () => {
    const r = rig();
    const document = journalDocument(`JX-${randomUUID().slice(0, 6)}`);
    const { books_voucher_guid: guid } = (await runToOutcome(r, voucherJob(company, document))) as { books_voucher_guid: string };
    const deletion = voucherActionJob(company, document, 'Delete', guid);
    await runLosingTheAnswer(r, deletion);
    expect((await books.vouchers(company.guid)).some((v) => v.guid === guid)).toBe(false);
    await r.runner.wake();
    expect(r.jobs.get(deletion.job_id)?.outcome).toMatchObject({ status: 'completed', books_voucher_guid: guid });
    // A first deletion of a voucher the books never had still fails, with their words.
    const stray = voucherActionJob(company, document, 'Delete', `${company.guid}-0000ffff`);
    expect(await runToOutcome(r, stray)).toMatchObject({ status: 'failed', error_code: 'VOUCHER_NOT_FOUND', error_message: expect.stringMatching(/no voucher with that identity/) });

    // The same for a master.
    const name = `Gone Party ${randomUUID().slice(0, 6)}`;
    await runToOutcome(r, ledgerJob(company, name));
    const removal = ledgerJob(company, name, { action: 'Delete' });
    await runLosingTheAnswer(r, removal);
    await r.runner.wake();
    expect(r.jobs.get(removal.job_id)?.outcome).toEqual({ status: 'completed', books_master_id: null });
    const ledgers = await books.control<{ name: string }[]>('GET', `/companies/${encodeURIComponent(company.guid)}/masters?type=ledger`);
    expect(ledgers.some((l) => l.name === name)).toBe(false);
  });

  it('books once when the connector dies after sending the import, then restarts from the same data dir', async () => {
    const dataDir = tempDataDir();
    class Crash extends Error {}
    const first = rig(dataDir, (real) => ({
      importXml: async (xml, expectation) => {
        await real.importXml(xml, expectation);
        throw new Crash('connector killed before recording the outcome');
      },
      voucherTypeKind: (books, name) => real.voucherTypeKind(books, name),
    }));
    const job = voucherJob(company, journalDocument('JK-1'));
    first.jobs.receive([job]);
    await first.runner.wake();
    // Died between sending and recording: on disk the job is "importing", outcome unknown.
    expect(first.jobs.get(job.job_id)).toMatchObject({ state: 'importing', outcome: null });
    await closeRig(first);
    expect(await bookedWith(job.job_id)).toHaveLength(1);

    const second = rig(dataDir);
    expect(second.jobs.get(job.job_id)?.state).toBe('importing');
    await second.runner.wake();
    const booked = await bookedWith(job.job_id);
    expect(booked).toHaveLength(1);
    expect(second.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed', books_voucher_guid: booked[0]?.guid });
  });

  it('writes a received job as importing at once, so a crash before its request leaves still books it once', async () => {
    const dataDir = tempDataDir();
    const first = rig(dataDir);
    const jobs = [1, 2].map((n) => voucherJob(company, journalDocument(`JE-${n}`)));
    first.jobs.receive(jobs);
    // The runner still sees them queued (they batch together); the rows already say "may have left".
    expect(first.jobs.get(jobs[0]!.job_id)?.state).toBe('queued');
    expect(first.jobs.counts()).toMatchObject({ waiting: 2, importing: 0 });
    const [row] = first.db.prepare('SELECT state FROM jobs WHERE job_id = ?').all(jobs[0]!.job_id) as { state: string }[];
    expect(row?.state).toBe('importing');
    first.db.close(); // killed: no stop, nothing written back

    const second = rig(dataDir);
    expect(second.jobs.get(jobs[0]!.job_id)?.state).toBe('importing');
    await second.runner.wake();
    // Each is looked up alone by its REMOTEID (not known to have stayed unsent), and booked once.
    expect(second.client.requestCounts()).toEqual({ import: 2 });
    for (const job of jobs) expect(await bookedWith(job.job_id)).toHaveLength(1);
  });

  it('writes jobs that never left back to queued when the books are unavailable or the connector stops', async () => {
    const dataDir = tempDataDir();
    const first = rig(dataDir);
    const jobs = [1, 2].map((n) => voucherJob(company, journalDocument(`JQ-${n}`)));
    first.jobs.receive(jobs);
    first.jobs.unmarkUnsent(); // as ConnectorService.stop does after the runner stopped
    await closeRig(first);
    const second = rig(dataDir);
    expect(second.jobs.get(jobs[0]!.job_id)?.state).toBe('queued');
    await second.runner.wake();
    expect(second.client.requestCounts()).toEqual({ import: 1 });

    const third = rig();
    const waiting = voucherJob(company, journalDocument('JQ-3'));
    third.jobs.receive([waiting]);
    await books.control('POST', '/books/stop');
    await third.runner.wake();
    const [row] = third.db.prepare('SELECT state FROM jobs WHERE job_id = ?').all(waiting.job_id) as { state: string }[];
    expect(row?.state).toBe('queued');
    await books.control('POST', '/books/start');
  });

  it('dedupes on job id: a redelivered job is stored once and a settled one is not run again', async () => {
    const r = rig();
    const job = voucherJob(company, journalDocument('JR-1'));
    expect(r.jobs.receive([job])[0]?.isNew).toBe(true);
    expect(r.jobs.receive([{ ...job, attempt: 2 }])[0]).toMatchObject({ isNew: false, job: { attempt: 2 } });
    await r.runner.wake();
    const [again] = r.jobs.receive([{ ...job, attempt: 3 }]);
    expect(again).toMatchObject({ isNew: false, job: { state: 'settled' } });
    await r.runner.wake();
    expect(r.client.requestCounts()).toEqual({ import: 1 });
    expect(await bookedWith(job.job_id)).toHaveLength(1);
  });

  /**
   * A rig whose requests are recorded (the REMOTEIDs each carried, in order); `whileFirstInBooks` runs
   * once the first request is on its way, when the runner has prepared the one after it.
   */
  function recordingRig(batchSize: number, whileFirstInBooks: (r: Rig) => void): { r: Rig; requests: string[][] } {
    const requests: string[][] = [];
    const made: { rig?: Rig } = {};
    const r = rig(tempDataDir(), (real) => ({
      voucherTypeKind: (company, typeName) => real.voucherTypeKind(company, typeName),
      importXml(xml, expectation) {
        const first = requests.length === 0;
        // The runner hands its imports over encoded as the books take them (UTF-16LE after a BOM).
        const text = typeof xml === 'string' ? xml : xml.utf16.toString('utf16le').slice(1);
        requests.push([...text.matchAll(/REMOTEID="([^"]+)"/g)].map((m) => m[1] as string));
        const onSent = () => {
          expectation.onSent?.();
          if (first && made.rig) whileFirstInBooks(made.rig);
        };
        return real.importXml(xml, { ...expectation, onSent });
      },
    }), batchSize);
    made.rig = r;
    return { r, requests };
  }

  it('sends the request it prepared while the one before was in the books, unless a job of it changed meanwhile', async () => {
    const jobs = ['JP-1', 'JP-2', 'JP-3', 'JP-4'].map((n) => voucherJob(company, journalDocument(`${n}-${randomUUID().slice(0, 6)}`)));
    const [a, b, c, d] = jobs as [AssignedJob, AssignedJob, AssignedJob, AssignedJob];
    // While [a, b] is in the books, the relay hands c over again: its earlier import may have gone in,
    // so it must go alone (looked up by REMOTEID), not in the request prepared as [c, d].
    const { r, requests } = recordingRig(2, (rig) => void rig.jobs.receive([{ ...c, attempt: 2 }]));
    r.jobs.receive(jobs);
    await r.runner.wake();
    expect(requests).toEqual([[a.job_id, b.job_id], [c.job_id], [d.job_id]]);
    for (const job of jobs) {
      expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed' });
      expect(await bookedWith(job.job_id)).toHaveLength(1);
    }
  });

  it('does not send a short prepared request when a job that can join it arrived meanwhile', async () => {
    const [a, b, c, e] = ['JQ-1', 'JQ-2', 'JQ-3', 'JQ-4'].map((n) => voucherJob(company, journalDocument(`${n}-${randomUUID().slice(0, 6)}`))) as [
      AssignedJob,
      AssignedJob,
      AssignedJob,
      AssignedJob,
    ];
    const { r, requests } = recordingRig(2, (rig) => void rig.jobs.receive([e]));
    r.jobs.receive([a, b, c]);
    await r.runner.wake();
    expect(requests).toEqual([[a.job_id, b.job_id], [c.job_id, e.job_id]]);
    for (const job of [a, b, c, e]) expect(await bookedWith(job.job_id)).toHaveLength(1);
  });

  it("logs a job's outcome once it is written, not between the answer and the next request", async () => {
    const db = openLocalDatabase(tempDataDir());
    const jobs = new JobStore(db);
    const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 10_000 });
    const seen: { message: string; stateThen: string | undefined }[] = [];
    const log = createLogger([(record) => {
      const jobId = /^job (\S+) completed/.exec(record.message)?.[1];
      if (jobId) seen.push({ message: record.message, stateThen: jobs.get(jobId)?.state });
    }], 'info');
    const runner = new JobRunner({ jobs, books: new BooksOperations(client), log, batchSize: 2, onSettled: () => undefined });
    try {
      const run = ['JL-1', 'JL-2', 'JL-3'].map((n) => voucherJob(company, journalDocument(`${n}-${randomUUID().slice(0, 6)}`)));
      jobs.receive(run);
      await runner.wake();
      expect(seen.map((line) => line.stateThen)).toEqual(['settled', 'settled', 'settled']);
      for (const job of run) expect(seen.filter((line) => line.message.includes(job.job_id))).toHaveLength(1);
    } finally {
      await runner.stop();
      client.close();
      db.close();
    }
  });

  it('lets jobs wait while the books are stopped and runs them when they are back', async () => {
    const r = rig();
    const job = voucherJob(company, journalDocument('JW-1'));
    r.jobs.receive([job]);
    await books.control('POST', '/books/stop');
    await r.runner.wake();
    expect(r.jobs.get(job.job_id)?.state).toBe('queued');
    expect(r.runner.waitingReason).toMatch(/nothing answers/);
    await books.control('POST', '/books/start');
    await r.runner.wake();
    expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed' });
    expect(await bookedWith(job.job_id)).toHaveLength(1);
  });

  it('holds the jobs of a company the books say is not open, runs the others, then runs them once it is open', async () => {
    const r = rig();
    const other = (await books.companies())[1] as { guid: string; name: string };
    await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/close`);
    const held = [voucherJob(company, journalDocument('JC-1')), voucherJob(company, journalDocument('JC-2'))];
    const otherJob = voucherJob(other, {
      ...journalDocument('JC-3'),
      party_ledger: 'Office Rent',
      ledger_entries: [
        { ledger_name: 'Office Rent', amount: 40, is_debit: true },
        { ledger_name: 'ICICI Bank', amount: 40, is_debit: false },
      ],
    });
    try {
      r.jobs.receive([...held, otherJob]);
      await r.runner.wake();
      // The books refused the closed company's request whole: nothing booked, nothing failed, still waiting;
      // the other company's job, behind them, went on.
      for (const job of held) {
        expect(r.jobs.get(job.job_id)).toMatchObject({ state: 'queued', outcome: null });
        expect(await bookedWith(job.job_id)).toHaveLength(0);
      }
      expect(r.jobs.get(otherJob.job_id)?.outcome).toMatchObject({ status: 'completed' });
      expect(r.client.requestCounts()).toEqual({ import: 2 });
      // Woken again while the company is still closed, the runner does not ask the books again.
      await r.runner.wake();
      expect(r.client.requestCounts()).toEqual({ import: 2 });
    } finally {
      await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/open`);
    }
    r.runner.companiesOpen([company]);
    await r.runner.wake();
    expect(r.client.requestCounts()).toEqual({ import: 3 });
    for (const job of held) {
      expect(r.jobs.get(job.job_id)?.outcome).toMatchObject({ status: 'completed' });
      expect(await bookedWith(job.job_id)).toHaveLength(1);
    }
  });
});
