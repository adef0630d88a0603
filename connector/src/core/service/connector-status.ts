// What the connector shows a person (local UI, tray, `connector status`): the relay link, the books,
// each pairing and its last sync, the job queue, all with a sentence in plain words next to the facts.
import type { BooksPicture } from '../presence/presence-monitor.js';
import { findOpenCompany } from '../presence/books-company.js';
import type { RelayLinkState } from '../relay/relay-link.js';
import type { Pairing } from '../state/pairing-store.js';
import type { JobCounts } from '../state/job-store.js';
import type { SyncRun } from '../state/sync-state-store.js';
import type { SyncProgress } from '../sync/sync-engine.js';

export type RelayStatus = Readonly<{
  state: 'not_enrolled' | RelayLinkState;
  url: string | null;
  connectorId: string | null;
  machineName: string | null;
  lastError: string | null;
  description: string;
}>;

export type BooksStatus = Readonly<{
  url: string;
  running: boolean | null;
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
  description: string;
}>;

export type QueueStatus = Readonly<{ waiting: number; importing: number; unreported: number; done: number; description: string }>;

export type ConnectorStatus = Readonly<{
  version: string;
  relay: RelayStatus;
  books: BooksStatus;
  pairings: readonly PairingStatus[];
  queue: QueueStatus;
  sync: Readonly<{ running: boolean; progress: SyncProgress | null; percent: number | null; description: string }>;
}>;

export function describeRelay(state: RelayStatus['state'], url: string | null, lastError: string | null): string {
  switch (state) {
    case 'not_enrolled':
      return 'Not set up yet: paste the customer token to connect this computer.';
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

export function describeBooks(picture: BooksPicture, waitingReason: string | null): string {
  if (picture.running === null) return 'Checking whether TallyPrime is running…';
  if (!picture.running) return 'TallyPrime is not running (or its XML server is off). Start it; waiting jobs will then run.';
  if (picture.problem) return `TallyPrime is running, but ${picture.problem.replace(/^the books are running, but /, '')}.`;
  if (waitingReason) return `TallyPrime is running; jobs are waiting: ${waitingReason}.`;
  return `TallyPrime is running with ${picture.companies.length} ${picture.companies.length === 1 ? 'company' : 'companies'} open.`;
}

export function describePairing(pairing: Pairing, picture: BooksPicture, run: SyncRun): PairingStatus {
  const open = findOpenCompany(picture.companies, pairing.booksCompanyGuid, pairing.booksCompanyName) !== undefined;
  let description: string;
  if (!pairing.confirmed) description = `Waiting for the relay to confirm the pairing with "${pairing.booksCompanyName}".`;
  else if (picture.running === false) description = `"${pairing.booksCompanyName}": TallyPrime is not running.`;
  else if (!open && picture.running) description = `"${pairing.booksCompanyName}" is not open in TallyPrime. Open it so its jobs and sync can run.`;
  else if (run.lastError) description = `"${pairing.booksCompanyName}": last sync failed — ${run.lastError}`;
  else if (run.lastSyncAt) description = `"${pairing.booksCompanyName}" is open; last synced ${run.lastSyncAt} (${run.lastResult ?? 'ok'}).`;
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
    description,
  };
}

export function describeQueue(counts: JobCounts): QueueStatus {
  const parts: string[] = [];
  if (counts.waiting > 0) parts.push(`${counts.waiting} waiting`);
  if (counts.importing > 0) parts.push(`${counts.importing} being imported`);
  if (counts.unreported > 0) parts.push(`${counts.unreported} results not yet delivered to the relay`);
  return {
    waiting: counts.waiting,
    importing: counts.importing,
    unreported: counts.unreported,
    done: counts.settled,
    description: parts.length === 0 ? `No jobs waiting (${counts.settled} done).` : `Jobs: ${parts.join(', ')}.`,
  };
}

const PHASE_WORDS = { probe: 'checking for changes', masters: 'sending masters', vouchers: 'sending vouchers', deletions: 'looking for deletions', reports: 'refreshing reports' } as const;

export function describeSync(running: boolean, progress: SyncProgress | null): ConnectorStatus['sync'] {
  const percent = progress && progress.total > 0 ? Math.min(100, Math.round((progress.done / progress.total) * 100)) : null;
  const description = !running
    ? 'Idle.'
    : progress
      ? `Company ${progress.companyId}: ${PHASE_WORDS[progress.phase]} (${progress.items} items so far).`
      : 'Checking the books for changes…';
  return { running, progress, percent, description };
}
