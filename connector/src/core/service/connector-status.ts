// What the connector shows a person (local UI, tray, `connector status`): the relay link, the books,
// each pairing and its last sync, the job queue, all with a sentence in plain words next to the facts.
import { booksOnThisComputer, type TallyProgramState } from '../books/tally-program.js';
import type { BooksPicture } from '../presence/presence-monitor.js';
import { findOpenCompany } from '../presence/books-company.js';
import type { RelayLinkState } from '../relay/relay-link.js';
import type { Pairing } from '../state/pairing-store.js';
import type { JobCounts } from '../state/job-store.js';
import type { SyncRun } from '../state/sync-state-store.js';
import type { SyncProgress } from '../sync/sync-engine.js';
import { readCursor } from '../sync/sync-cursor.js';

export type RelayStatus = Readonly<{
  state: 'not_enrolled' | RelayLinkState;
  url: string | null;
  connectorId: string | null;
  machineName: string | null;
  lastError: string | null;
  description: string;
}>;

/**
 * What a person must do for the books to answer, when they must: open TallyPrime, turn its XML port on,
 * check the other computer TallyPrime runs on, or open a company. The page shows the steps for each.
 */
export type BooksAttention = 'tally_closed' | 'xml_port_off' | 'not_answering' | 'other_computer' | 'no_company_open';

export type BooksStatus = Readonly<{
  url: string;
  running: boolean | null;
  /** TallyPrime's program on this computer, from its process list (unknown off Windows or for another computer). */
  program: TallyProgramState;
  attention: BooksAttention | null;
  companies: readonly { guid: string; name: string }[];
  checkedAt: string | null;
  /** Requests sent to the books since start, by kind (probe, presence, import, export, report). */
  requests: Readonly<Record<string, number>>;
  description: string;
}>;

export type PairingStatus = Readonly<{
  companyId: number;
  booksCompanyGuid: string;
  booksCompanyName: string;
  confirmed: boolean;
  open: boolean;
  lastSyncAt: string | null;
  lastSyncResult: string | null;
  lastSyncError: string | null;
  /** A sync pass is working on this company right now (its last result is then not the news). */
  syncing: boolean;
  description: string;
}>;

export type QueueStatus = Readonly<{ waiting: number; importing: number; unreported: number; done: number; description: string }>;

export type ConnectorStatus = Readonly<{
  version: string;
  relay: RelayStatus;
  books: BooksStatus;
  pairings: readonly PairingStatus[];
  queue: QueueStatus;
  sync: Readonly<{
    running: boolean;
    progress: SyncProgress | null;
    percent: number | null;
    /** Vouchers this pass expects to send for the company in progress (from the books' counters), or null. */
    expectedVouchers: number | null;
    /** When the last sync of any company finished, or null before the first. */
    lastSyncAt: string | null;
    /** Companies whose last sync failed, with why: the connector is then not up to date. */
    failures: readonly Readonly<{ companyId: number; error: string }>[];
    description: string;
  }>;
}>;

/** How long ago `at` (ISO time) was, in words: "just now", "5 minutes ago", "yesterday at 14:05". */
export function describeAge(at: string, now: Date = new Date()): string {
  const then = new Date(at);
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (!Number.isFinite(seconds)) return at;
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes === 1 ? 'a minute ago' : `${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 12) return hours === 1 ? 'an hour ago' : `${hours} hours ago`;
  const clock = `${String(then.getHours()).padStart(2, '0')}:${String(then.getMinutes()).padStart(2, '0')}`;
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const daysBack = Math.round((day(now) - day(then)) / 86_400_000);
  if (daysBack === 0) return `today at ${clock}`;
  if (daysBack === 1) return `yesterday at ${clock}`;
  return `on ${then.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })} at ${clock}`;
}

export function describeRelay(state: RelayStatus['state'], url: string | null, lastError: string | null): string {
  switch (state) {
    case 'not_enrolled':
      return 'Not set up yet: type in the code your software provider gave you to connect this computer.';
    case 'online':
      return `Connected to the relay at ${url ?? ''}.`;
    case 'connecting':
      // After a failure this is a retry of the backoff: the person needs the same reassurance as offline.
      return lastError
        ? `Trying the relay at ${url ?? ''} again (${lastError}). Results are kept here and sent when it is back.`
        : `Connecting to the relay at ${url ?? ''}…`;
    case 'offline':
      return `Not connected to the relay${lastError ? ` (${lastError})` : ''}; trying again. Results are kept here and sent when it is back.`;
    case 'stopped':
      return 'The connector is not running.';
  }
}

export function booksAttention(picture: BooksPicture, booksUrl: string, program: TallyProgramState): BooksAttention | null {
  if (picture.running === true) return picture.companies.length === 0 && picture.problem !== null ? 'no_company_open' : null;
  if (picture.running === null) return null;
  if (!booksOnThisComputer(booksUrl)) return 'other_computer';
  return program === 'not_running' ? 'tally_closed' : program === 'running' ? 'xml_port_off' : 'not_answering';
}

function portOf(booksUrl: string): string {
  if (!URL.canParse(booksUrl)) return '9000';
  const url = new URL(booksUrl);
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

export function describeBooks(picture: BooksPicture, waitingReason: string | null, booksUrl: string, program: TallyProgramState = 'unknown'): string {
  if (picture.running === null) return 'Checking whether TallyPrime is running…';
  switch (booksAttention(picture, booksUrl, program)) {
    case 'tally_closed':
      return 'TallyPrime is not open on this computer. Open TallyPrime and load your company; waiting vouchers then go in.';
    case 'xml_port_off':
      return `TallyPrime is open, but it does not let other programs connect on port ${portOf(booksUrl)}: its XML port is off. Turn it on as shown below; waiting vouchers then go in.`;
    case 'not_answering':
      return `TallyPrime does not answer at ${booksUrl}. Open TallyPrime and load your company; if it is open already, turn its XML port on as shown below.`;
    case 'other_computer':
      return `TallyPrime does not answer at ${booksUrl}. On that computer, open TallyPrime with your company and turn its XML port on; check that this computer can reach it on the network.`;
    default:
      break;
  }
  if (picture.problem) return `TallyPrime is running, but ${picture.problem.replace(/^the books are running,? but /, '')}.`;
  if (waitingReason) return `TallyPrime is running; jobs are waiting: ${waitingReason}.`;
  return `TallyPrime is running with ${picture.companies.length} ${picture.companies.length === 1 ? 'company' : 'companies'} open.`;
}

/** `syncing`: a pass is on this company now, so its last result ("up to date") is not said as the news. */
export function describePairing(pairing: Pairing, picture: BooksPicture, run: SyncRun, now: Date = new Date(), syncing = false): PairingStatus {
  const open = findOpenCompany(picture.companies, pairing.booksCompanyGuid, pairing.booksCompanyName) !== undefined;
  let description: string;
  if (!pairing.confirmed) description = `Waiting for the relay to confirm the pairing with "${pairing.booksCompanyName}".`;
  else if (picture.running === false) description = `"${pairing.booksCompanyName}": TallyPrime is not running.`;
  else if (!open && picture.running) description = `"${pairing.booksCompanyName}" is not open in TallyPrime. Open it so its jobs and sync can run.`;
  else if (syncing) description = `"${pairing.booksCompanyName}" is open; syncing now.`;
  else if (run.lastError) description = `"${pairing.booksCompanyName}": last sync failed — ${run.lastError}`;
  else if (run.lastSyncAt) description = `"${pairing.booksCompanyName}" is open; last synced ${describeAge(run.lastSyncAt, now)} (${run.lastResult ?? 'ok'}).`;
  else description = `"${pairing.booksCompanyName}" is open; not synced yet.`;
  return {
    companyId: pairing.companyId,
    booksCompanyGuid: pairing.booksCompanyGuid,
    booksCompanyName: pairing.booksCompanyName,
    confirmed: pairing.confirmed,
    open,
    lastSyncAt: run.lastSyncAt,
    lastSyncResult: run.lastResult,
    lastSyncError: run.lastError,
    syncing,
    description,
  };
}

/**
 * The jobs this connector holds, in words that say so: the relay hands jobs over a few at a time, and
 * jobs still queued at the relay are not counted here ("3 jobs here waiting for the books").
 */
export function describeQueue(counts: JobCounts): QueueStatus {
  const parts: [number, string][] = [];
  if (counts.waiting > 0) parts.push([counts.waiting, 'waiting for the books']);
  if (counts.importing > 0) parts.push([counts.importing, 'being imported']);
  if (counts.unreported > 0) parts.push([counts.unreported, counts.unreported === 1 ? 'whose result has not reached the relay yet' : 'whose results have not reached the relay yet']);
  const words = parts.map(([n, what], index) => (index === 0 ? `${n} ${n === 1 ? 'job' : 'jobs'} here ${what}` : `${n} ${what}`));
  const last = words.pop();
  return {
    waiting: counts.waiting,
    importing: counts.importing,
    unreported: counts.unreported,
    done: counts.settled,
    description: last === undefined
      ? `No jobs here waiting for the books (${counts.settled} done).`
      : `${words.length > 0 ? `${words.join(', ')} and ` : ''}${last}.`,
  };
}

const PHASE_WORDS = { probe: 'checking for changes', masters: 'sending masters', vouchers: 'sending vouchers', deletions: 'looking for deletions', reports: 'refreshing reports' } as const;

/**
 * Each phase's share of a company's pass (from, to, in percent), so the bar only moves forward through
 * the pass: vouchers are most of the work; masters, deletions and reports are quick.
 */
const PHASE_BANDS: Readonly<Record<SyncProgress['phase'], readonly [number, number]>> = {
  probe: [0, 0],
  masters: [0, 10],
  vouchers: [10, 90],
  deletions: [90, 95],
  reports: [95, 100],
};

/**
 * How far through a company's pass: its phase's band, filled by the share of the phase done. In the
 * vouchers phase the share is counted in vouchers sent out of those expected (when the books' counters
 * give an expectation), so a pass of thousands of vouchers in one date window moves voucher by voucher
 * rather than jumping from the band's start to its end. Windows done are not mixed in there: the
 * windows are sized as the pass finds the book's density, so their count left can grow, and the bar
 * would step back.
 */
function passPercent(progress: SyncProgress, expectedVouchers: number | null): number {
  const [from, to] = PHASE_BANDS[progress.phase];
  const share =
    progress.phase === 'vouchers' && expectedVouchers !== null && expectedVouchers > 0
      ? Math.min(1, progress.items / expectedVouchers)
      : progress.total > 0
        ? Math.min(1, progress.done / progress.total)
        : 0;
  return Math.round(from + (to - from) * share);
}

/**
 * Vouchers a pass will send at most for a company: how far the books' voucher counter (AltVchId) is
 * ahead of the confirmed cursor. Null when the company is not open or the counter is not known.
 */
export function expectedVoucherChanges(company: Readonly<{ altVchId: number }> | undefined, vouchersCursor: string | undefined): number | null {
  if (company === undefined || !Number.isFinite(company.altVchId)) return null;
  const ahead = company.altVchId - readCursor(vouchersCursor).a;
  return ahead > 0 ? ahead : null;
}

export type SyncFacts = Readonly<{
  expectedVouchers?: number | null;
  failures?: readonly Readonly<{ companyId: number; error: string }>[];
}>;

/** The sync in words that never claim "up to date" while a pass runs or after one failed. */
export function describeSync(running: boolean, progress: SyncProgress | null, lastSyncAt: string | null, now: Date = new Date(), facts: SyncFacts = {}): ConnectorStatus['sync'] {
  const expectedVouchers = running ? (facts.expectedVouchers ?? null) : null;
  const failures = facts.failures ?? [];
  const percent = progress ? passPercent(progress, expectedVouchers) : null;
  let description: string;
  if (running) description = progress ? `Company ${progress.companyId}: ${PHASE_WORDS[progress.phase]} (${progress.items} items so far).` : 'Checking the books for changes…';
  else if (failures.length > 0) description = `The last sync failed for ${failures.map((f) => `company ${f.companyId} (${f.error})`).join(' and ')}; it is tried again at the next pass.`;
  else description = lastSyncAt ? `Idle; the last sync finished ${describeAge(lastSyncAt, now)}.` : 'Idle; nothing has been synced yet.';
  return { running, progress, percent, expectedVouchers, lastSyncAt, failures, description };
}
