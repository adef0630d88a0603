// The sync of the books to the relay: what it is doing now, with a bar that moves with the vouchers sent
// (no bar while idle: an idle connector is not "100 % done"), how the last one went in words that never
// claim "up to date" while a sync runs or after one failed, and Sync now.
import { ErrorNotice, Notice, Panel, ProgressBar, useAction } from '@ledgerwire/ui-kit';
import { useState } from 'preact/hooks';
import type { CompanyNames } from './company-names.js';
import type { ConnectorStatus, LocalApi, SyncResult } from './local-api.js';
import { count, localTime, timeAgo } from './local-words.js';

type Sync = ConnectorStatus['sync'];

const PHASE_WORDS: Readonly<Record<NonNullable<Sync['progress']>['phase'], string>> = {
  probe: 'checking the books for changes',
  masters: 'sending ledgers, items and other masters',
  vouchers: 'sending vouchers',
  deletions: 'looking for what was deleted in the books',
  reports: 'refreshing reports',
};

/** What the sync under way is doing, counted where it can be. */
export function runningWords(sync: Sync, names: CompanyNames): string {
  const progress = sync.progress;
  if (!progress) return 'Syncing: checking the books for changes…';
  const what = `Syncing ${names.name(progress.companyId)}: ${PHASE_WORDS[progress.phase]}`;
  if (progress.phase !== 'vouchers') return `${what}…`;
  if (sync.expectedVouchers !== null && sync.expectedVouchers >= progress.items) return `${what}, ${count(progress.items)} of about ${count(sync.expectedVouchers)} sent…`;
  return `${what}, ${count(progress.items)} sent so far…`;
}

/** The state of the sync when none runs, and how it reads: a warning while a company's last sync failed. */
export function idleWords(status: ConnectorStatus, names: CompanyNames, now: Date): { text: string; tone: 'info' | 'warning' } {
  const sync = status.sync;
  if (sync.failures.length > 0) {
    const failed = sync.failures.map((f) => `${names.name(f.companyId)} failed (${f.error})`).join('; ');
    return { text: `Not up to date: the last sync of ${failed}. It is tried again at the next pass, or press Sync now.`, tone: 'warning' };
  }
  if (status.pairings.length === 0) return { text: 'Nothing to sync yet: no company is paired.', tone: 'info' };
  if (sync.lastSyncAt) return { text: `Idle. The last sync finished at ${localTime(sync.lastSyncAt, now)} (${timeAgo(sync.lastSyncAt, now)}).`, tone: 'info' };
  return { text: 'Idle; nothing has been synced yet.', tone: 'info' };
}

/** Why Sync now did nothing, from what the page last knew. */
function whyNothingSynced(status: ConnectorStatus): string {
  if (status.books.running === false) return status.books.description;
  if (status.pairings.length === 0) return 'no company is paired yet.';
  return 'see the log.';
}

function resultWords(results: readonly SyncResult[], status: ConnectorStatus, names: CompanyNames): string {
  if (results.length === 0) return `Nothing was synced: ${whyNothingSynced(status)}`;
  return results.map((r) => `${names.label(r.companyId)}: ${r.ok ? r.summary : `failed — ${r.summary}`}`).join(' · ');
}

export function SyncPanel(props: { api: LocalApi; status: ConnectorStatus; names: CompanyNames; at: Date }) {
  const { status, names } = props;
  const sync = status.sync;
  const action = useAction();
  const [result, setResult] = useState<string | undefined>(undefined);
  const idle = sync.running ? undefined : idleWords(status, names, props.at);
  const syncNow = () =>
    void action.run(async () => {
      setResult(undefined);
      const { results } = await props.api.syncNow();
      setResult(resultWords(results, status, names));
    });
  const online = status.relay.state === 'online';
  return (
    <Panel
      title="Sync"
      actions={
        <button type="button" id="sync-now" onClick={syncNow} disabled={sync.running || action.busy || !online} title={online ? undefined : 'The relay must be connected to sync.'}>
          {sync.running || action.busy ? 'Syncing…' : 'Sync now'}
        </button>
      }
    >
      <p id="sync-state" class={`sync-state${idle?.tone === 'warning' ? ' sync-state-warning' : ''}`} role="status" aria-live="polite" data-running={String(sync.running)}>
        {sync.running ? runningWords(sync, names) : idle?.text}
      </p>
      {sync.running && <ProgressBar label="Sync progress" percent={sync.percent} valueText={sync.percent === null ? 'under way' : `${sync.percent} percent`} />}
      <div id="sync-result" aria-live="polite">
        {/* A finished sync's result is not the news while another runs (it may say "up to date"). */}
        {result && !sync.running && <Notice tone="info">{result}</Notice>}
        <ErrorNotice error={action.error} title="Sync failed:" />
      </div>
    </Panel>
  );
}
