// The connector's status at one moment, from its parts: the relay link, the books, each pairing with
// its last sync, the queue and the sync under way — facts with the sentences of connector-status.ts.
import { findOpenCompany } from '../presence/books-company.js';
import type { RelayLinkState } from '../relay/relay-link.js';
import type { SyncProgress } from '../sync/sync-engine.js';
import { CONNECTOR_VERSION } from '../version.js';
import type { ConnectorParts } from './connector-parts.js';
import {
  booksAttention,
  describeBooks,
  describePairing,
  describeQueue,
  describeRelay,
  describeSync,
  expectedVoucherChanges,
  type ConnectorStatus,
} from './connector-status.js';

export type LinkFacts = Readonly<{
  /** 'stopped' for a service not started (a CLI command) or stopping. */
  linkState: RelayLinkState;
  lastError: string | null;
  syncing: boolean;
  syncProgress: SyncProgress | null;
}>;

export function statusSnapshot(parts: ConnectorParts, facts: LinkFacts): ConnectorStatus {
  const { settings, presence, pairings: pairingStore, syncState, books, tallyProgram, runner, jobs } = parts;
  const enrolment = settings.enrolment();
  const state = enrolment ? facts.linkState : 'not_enrolled';
  const picture = presence.picture;
  const pairings = pairingStore.list().map((pairing) => ({ pairing, run: syncState.run(pairing.companyId) }));
  const syncingCompany = facts.syncing ? (facts.syncProgress?.companyId ?? null) : null;
  const now = new Date();
  return {
    version: CONNECTOR_VERSION,
    relay: {
      state,
      url: enrolment?.relayUrl ?? settings.relayUrl() ?? null,
      connectorId: enrolment?.connectorId ?? null,
      machineName: enrolment?.machineName ?? null,
      lastError: facts.lastError,
      description: describeRelay(state, enrolment?.relayUrl ?? null, facts.lastError),
    },
    books: {
      url: books.url,
      running: picture.running,
      program: tallyProgram.state,
      attention: booksAttention(picture, books.url, tallyProgram.state),
      companies: picture.companies.map((c) => ({ guid: c.guid, name: c.name })),
      checkedAt: picture.checkedAt,
      requests: books.requestCounts(),
      description: describeBooks(picture, runner.waitingReason, books.url, tallyProgram.state),
    },
    pairings: pairings.map(({ pairing, run }) => describePairing(pairing, picture, run, now, syncingCompany === pairing.companyId)),
    queue: describeQueue(jobs.counts()),
    sync: describeSync(facts.syncing, facts.syncProgress, latest(pairings.map(({ run }) => run.lastSyncAt)), now, {
      expectedVouchers: expectedVouchers(parts, facts),
      failures: pairings.flatMap(({ pairing, run }) => (run.lastError && pairing.confirmed ? [{ companyId: pairing.companyId, error: run.lastError }] : [])),
    }),
  };
}

/** Vouchers the pass under way expects to send for the company it is on (for a bar that moves by count). */
function expectedVouchers(parts: ConnectorParts, facts: LinkFacts): number | null {
  const progress = facts.syncProgress;
  if (!facts.syncing || progress?.phase !== 'vouchers') return null;
  const pairing = parts.pairings.list().find((p) => p.companyId === progress.companyId);
  if (!pairing) return null;
  const company = findOpenCompany(parts.presence.picture.companies, pairing.booksCompanyGuid, pairing.booksCompanyName);
  return expectedVoucherChanges(company, parts.syncState.cursor(progress.companyId, 'vouchers'));
}

/** The latest of some ISO times (they sort as text), or null when there is none. */
function latest(times: readonly (string | null)[]): string | null {
  return times.reduce<string | null>((last, at) => (at !== null && (last === null || at > last) ? at : last), null);
}
