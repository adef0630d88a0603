// The companies this computer serves: each paired company by the customer's name for it, the company
// it is in TallyPrime, whether it is open, when it last synced (local time) and how that went; unpair
// one (asked twice); pair another. Pairing that would undo another pairing says so and goes ahead only
// when Pair is pressed again.
import { Badge, ErrorNotice, Notice, Panel, Select, Table, useAction } from '@ledgerwire/ui-kit';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CompanyNames } from './company-names.js';
import type { CompanyLists, ConnectorStatus, LocalApi, PairingStatus } from './local-api.js';
import { localTime, timeAgo } from './local-words.js';

type Tone = 'good' | 'bad' | 'warn' | 'neutral';

function pairingBadge(pairing: PairingStatus, books: ConnectorStatus['books']): readonly [Tone, string] {
  if (!pairing.confirmed) return ['warn', 'Waiting for the relay'];
  if (books.running === false) return ['bad', 'TallyPrime not running'];
  if (books.running && !pairing.open) return ['bad', 'Not open in TallyPrime'];
  if (pairing.syncing) return ['warn', 'Syncing'];
  if (pairing.lastSyncError) return ['bad', 'Sync failed'];
  return pairing.lastSyncAt ? ['good', 'Open'] : ['neutral', 'Open, not synced yet'];
}

/** The last sync's outcome, never "up to date" while a sync of the company runs or after one failed. */
function lastOutcome(pairing: PairingStatus): string {
  if (pairing.syncing) return 'Syncing now…';
  if (pairing.lastSyncError) return `Failed: ${pairing.lastSyncError}`;
  return pairing.lastSyncResult ?? '—';
}

export function CompaniesPanel(props: {
  api: LocalApi;
  status: ConnectorStatus;
  lists: CompanyLists | undefined;
  listsProblem: string | undefined;
  names: CompanyNames;
  at: Date;
  onChanged: () => void;
}) {
  const { status, names } = props;
  const [confirmUnpair, setConfirmUnpair] = useState<number | undefined>(undefined);
  const [unpaired, setUnpaired] = useState<string | undefined>(undefined);
  const unpair = useAction();
  const enrolled = status.relay.state !== 'not_enrolled';
  // The question takes the keyboard focus when asked, on its safe answer.
  const keepButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirmUnpair !== undefined) keepButton.current?.focus();
  }, [confirmUnpair]);

  const doUnpair = (companyId: number) =>
    void unpair.run(async () => {
      await props.api.unpair(companyId);
      setConfirmUnpair(undefined);
      setUnpaired(`Unpaired ${names.label(companyId)}: its jobs and sync no longer run on this computer.`);
      props.onChanged();
    });

  return (
    <Panel title="Companies">
      <Table
        caption="Companies open in TallyPrime"
        rows={status.books.companies}
        rowKey={(c) => c.guid}
        rowData={(c) => ({ 'data-books-guid': c.guid })}
        empty={status.books.running ? 'No company is open in TallyPrime: load yours (Company > Select).' : 'TallyPrime does not answer yet: see above.'}
        columns={[
          { title: 'In TallyPrime', cell: (c) => <strong>{c.name}</strong> },
          {
            title: 'Connected to',
            cell: (c) => {
              const pairing = status.pairings.find((p) => p.booksCompanyGuid === c.guid);
              return pairing ? <Badge tone="good">{names.label(pairing.companyId)}</Badge> : <Badge tone="neutral">Not connected</Badge>;
            },
          },
        ]}
      />
      <Table
        caption="Paired companies"
        rows={status.pairings}
        rowKey={(p) => String(p.companyId)}
        rowData={(p) => ({ 'data-company-id': String(p.companyId) })}
        empty={enrolled ? 'No company is paired yet: pair one below.' : 'No company is paired yet: connect this computer first.'}
        columns={[
          {
            title: 'Company',
            // One element per cell: in a narrow window a cell is a two-column grid (title, content).
            cell: (p) => (
              <span class="company-name">
                <strong>{names.name(p.companyId)}</strong> <span class="muted">company {p.companyId}</span>
              </span>
            ),
          },
          { title: 'In TallyPrime', cell: (p) => p.booksCompanyName },
          {
            title: 'State',
            cell: (p) => {
              const [tone, words] = pairingBadge(p, status.books);
              return <Badge tone={tone}>{words}</Badge>;
            },
          },
          {
            title: 'Last synced',
            cell: (p) =>
              p.lastSyncAt ? (
                <time dateTime={p.lastSyncAt} title={p.lastSyncAt}>
                  {localTime(p.lastSyncAt, props.at)} ({timeAgo(p.lastSyncAt, props.at)})
                </time>
              ) : (
                <span class="muted">never</span>
              ),
          },
          { title: 'Last result', cell: lastOutcome },
          {
            title: 'Actions',
            cell: (p) =>
              enrolled ? (
                <button type="button" class="secondary small" aria-label={`Unpair ${names.name(p.companyId)}`} onClick={() => setConfirmUnpair(p.companyId)}>
                  Unpair
                </button>
              ) : null,
          },
        ]}
      />
      {confirmUnpair !== undefined && (
        <div class="notice notice-warning" role="alertdialog" aria-label="Unpair a company">
          <p>
            Unpair {names.label(confirmUnpair)} from this computer? Its jobs and sync stop here until it is paired again; nothing in TallyPrime is changed.
          </p>
          <div class="row">
            <button type="button" class="danger" disabled={unpair.busy} onClick={() => doUnpair(confirmUnpair)}>
              Yes, unpair {names.name(confirmUnpair)}
            </button>
            <button type="button" class="secondary" ref={keepButton} onClick={() => setConfirmUnpair(undefined)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <ErrorNotice error={unpair.error} title="Not unpaired:" />
      {unpaired && <Notice tone="success">{unpaired}</Notice>}
      {enrolled && <PairForm {...props} />}
    </Panel>
  );
}

/**
 * What a pairing would undo, in words: the books company is another company's now, or the company is
 * paired with another books company. Empty when it undoes nothing.
 */
function pairingTakeover(lists: CompanyLists, booksGuid: string, companyId: number): string {
  const booksName = lists.books.find((b) => b.guid === booksGuid)?.name ?? 'this company';
  const notes: string[] = [];
  const holder = lists.customer.find((c) => c.books_company_guid === booksGuid && c.company_id !== companyId);
  if (holder) notes.push(`"${booksName}" is paired with ${holder.name} (id ${holder.company_id}) now: pairing it here unpairs that company, whose jobs and sync then stop.`);
  const chosen = lists.customer.find((c) => c.company_id === companyId);
  if (chosen?.books_company_guid && chosen.books_company_guid !== booksGuid) {
    notes.push(`${chosen.name} (id ${chosen.company_id}) is paired with "${chosen.books_company_name ?? 'another company'}" now: this replaces that pairing.`);
  }
  return notes.join(' ');
}

function PairForm(props: { api: LocalApi; lists: CompanyLists | undefined; listsProblem: string | undefined; onChanged: () => void }) {
  const [booksChoice, setBooksChoice] = useState('');
  const [companyChoice, setCompanyChoice] = useState('');
  /** The selection a person was warned about; pressing Pair again with it goes ahead. */
  const [warned, setWarned] = useState<{ selection: string; text: string } | undefined>(undefined);
  const [paired, setPaired] = useState<string | undefined>(undefined);
  const action = useAction();
  const lists = props.lists;
  const booksOptions = (lists?.books ?? []).map((c) => [c.guid, c.name] as const);
  const companyOptions = (lists?.customer ?? []).map((c) => [String(c.company_id), `${c.name} (id ${c.company_id})${c.connector_id ? ' — paired' : ''}`] as const);
  // Until the person chooses, the first of each list is the choice (as a select shows it).
  const books = booksOptions.some(([value]) => value === booksChoice) ? booksChoice : (booksOptions[0]?.[0] ?? '');
  const company = companyOptions.some(([value]) => value === companyChoice) ? companyChoice : (companyOptions[0]?.[0] ?? '');
  const choose = (set: (value: string) => void) => (value: string) => {
    set(value);
    setWarned(undefined);
    setPaired(undefined);
    action.clear();
  };

  const submit = (event: Event) => {
    event.preventDefault();
    if (!lists || books === '' || company === '') return;
    const selection = `${books}|${company}`;
    const takeover = pairingTakeover(lists, books, Number(company));
    if (takeover && warned?.selection !== selection) {
      setWarned({ selection, text: `${takeover} Press Pair again to go ahead.` });
      return;
    }
    setWarned(undefined);
    setPaired(undefined);
    void action.run(async () => {
      const result = await props.api.pair(Number(company), books);
      setPaired(`Paired company ${result.company.company_id} with "${result.company.books_company_name ?? ''}".`);
      props.onChanged();
    });
  };

  return (
    <form class="form-row pair-form" id="pair-form" aria-label="Pair a company" onSubmit={submit}>
      <Select label="Company in TallyPrime" value={books} onChange={choose(setBooksChoice)} options={booksOptions} />
      <Select label="Your company" value={company} onChange={choose(setCompanyChoice)} options={companyOptions} />
      <button type="submit" disabled={action.busy || books === '' || company === ''}>
        {action.busy ? 'Pairing…' : 'Pair'}
      </button>
      <div id="pair-result" class="form-result" aria-live="polite">
        {warned && <Notice tone="warning">{warned.text}</Notice>}
        {paired && <Notice tone="success">{paired}</Notice>}
        <ErrorNotice error={action.error} title="Not paired:" />
        {props.listsProblem && <Notice tone="warning">{props.listsProblem}</Notice>}
      </div>
    </form>
  );
}
