// Jobs the relay hands over are stored a slice per event-loop turn, so an import answer that arrives
// meanwhile is read after one slice rather than after a whole run; each slice is acknowledged as it is
// stored, and the runner is woken once, when the run is stored whole.
import type { ClientMessage } from '@ledgerwire/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobRunner } from '../src/core/jobs/job-runner.js';
import { JobExchange, STORE_SLICE } from '../src/core/service/job-exchange.js';
import { JobStore } from '../src/core/state/job-store.js';
import { openLocalDatabase, type LocalDatabase } from '../src/core/state/local-database.js';
import { journalDocument, voucherJob } from './helpers/job-fixtures.js';
import { tempDataDir } from './helpers/test-emulator.js';

const company = { guid: 'c0a80001-0000-4000-8000-000000000001', name: 'Slice Traders' };
let db: LocalDatabase | undefined;

afterEach(() => {
  db?.close();
  db = undefined;
});

function exchangeRig(open = () => true) {
  db = openLocalDatabase(tempDataDir());
  const jobs = new JobStore(db);
  const sent: ClientMessage[] = [];
  const primed: string[] = [];
  let wakes = 0;
  const runner = { prime: (handed: readonly { job_id: string }[]) => primed.push(...handed.map((job) => job.job_id)), wake: async () => void (wakes += 1) };
  const exchange = new JobExchange({
    jobs,
    runner: runner as unknown as JobRunner,
    send: (message) => sent.push(message) > 0,
    jobRuns: () => true,
    open,
    changed: () => undefined,
  });
  const acks = () => sent.flatMap((message) => (message.type === 'jobs.ack' ? [message.job_ids] : []));
  return { exchange, jobs, acks, primed, wakes: () => wakes };
}

const run = (count: number, from = 0) => Array.from({ length: count }, (_, index) => voucherJob(company, journalDocument(`EX-${from + index}`)));

/** Resolves on the turn after everything scheduled so far (setImmediate callbacks run in order). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('jobs handed over', () => {
  it('are stored a slice per turn: I/O that arrived meanwhile runs after the first slice, not after the run', async () => {
    const { exchange, jobs, acks, wakes } = exchangeRig();
    const handed = run(STORE_SLICE * 2 + 7);
    exchange.receive(handed.slice(0, 60));
    exchange.receive(handed.slice(60)); // a second frame of the same read joins the first
    const storedBetween: number[] = [];
    setImmediate(() => storedBetween.push(jobs.open().length));
    await nextTurn();
    expect(storedBetween).toEqual([STORE_SLICE]);
    expect(wakes()).toBe(0);
    await nextTurn();
    await nextTurn();
    expect(jobs.open().map((job) => job.jobId)).toEqual(handed.map((job) => job.job_id));
    expect(acks().map((ids) => ids.length)).toEqual([STORE_SLICE, STORE_SLICE, 7]);
    expect(acks().flat()).toEqual(handed.map((job) => job.job_id));
    expect(wakes()).toBe(1);
  });

  it('a run no larger than a slice is stored, acknowledged and handed to the runner in the same turn', async () => {
    const { exchange, jobs, acks, primed, wakes } = exchangeRig();
    const handed = run(3);
    exchange.receive(handed);
    await Promise.resolve();
    expect(jobs.open()).toHaveLength(3);
    expect(primed).toEqual(handed.map((job) => job.job_id));
    expect(acks()).toEqual([handed.map((job) => job.job_id)]);
    expect(wakes()).toBe(1);
  });

  it('a job handed over again is acknowledged and not stored twice; a later run starts its own slices', async () => {
    const { exchange, jobs, acks, wakes } = exchangeRig();
    const first = run(2);
    exchange.receive(first);
    await Promise.resolve();
    exchange.receive([{ ...first[0]!, attempt: 2 }, ...run(1, 2)]);
    await Promise.resolve();
    expect(jobs.open()).toHaveLength(3);
    expect(jobs.get(first[0]!.job_id)?.attempt).toBe(2);
    expect(acks()).toHaveLength(2);
    expect(wakes()).toBe(2);
  });

  it('stops storing, unacknowledged, once the connector is stopping', async () => {
    let open = true;
    const { exchange, jobs, acks } = exchangeRig(() => open);
    exchange.receive(run(STORE_SLICE + 5));
    await Promise.resolve();
    open = false;
    await nextTurn();
    expect(jobs.open()).toHaveLength(STORE_SLICE);
    expect(acks().flat()).toHaveLength(STORE_SLICE);
    open = true;
    exchange.receive(run(1, 100));
    await Promise.resolve();
    expect(jobs.open()).toHaveLength(STORE_SLICE + 1);
  });
});
