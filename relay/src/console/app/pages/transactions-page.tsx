// Transactions (writes to the books) across applications, searched by voucher number, party, amount
// and date as well as company and status; the list shows those, the company by name, and why a waiting
// write waits or why a failed one failed. The search runs in the relay, a page at a time.
import { useState } from 'preact/hooks';
import type { ConsoleTransactionSearchOut, ConsoleTransactionSummaryOut } from '@ledgerwire/shared';
import { LoadedView, Page, Panel, Select, StatusBadge, Table, TextInput, When, useLoad } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { href, navigate, type Route } from '../router.js';

const STATUS_OPTIONS = [['', 'Any status'], ['queued', 'queued'], ['processing', 'processing'], ['completed', 'completed'], ['failed', 'failed']] as const;
const PAGE_SIZE = 50;

/** The search fields, as they stand in the address (so a search can be linked to and reloaded). */
const FIELDS = ['company_id', 'status', 'voucher_number', 'party', 'amount', 'date_from', 'date_to'] as const;
type Field = (typeof FIELDS)[number];
type Search = Record<Field, string>;

function searchOf(route: Route): Search {
  return Object.fromEntries(FIELDS.map((field) => [field, route.query.get(field) ?? ''])) as Search;
}

const listHref = (search: Search, offset: number) => withQuery(href('transactions'), { ...search, offset: offset || undefined });

export function TransactionsPage({ route }: { route: Route }) {
  const api = useApi();
  const search = searchOf(route);
  const offset = Number(route.query.get('offset') ?? '0') || 0;
  const [draft, setDraft] = useState<Search>(search);
  const set = (field: Field) => (value: string) => setDraft((previous) => ({ ...previous, [field]: value }));
  const results = useLoad(
    () => api.get<ConsoleTransactionSearchOut>(withQuery('/admin/v1/console/transactions', { ...search, limit: PAGE_SIZE, offset })),
    [...FIELDS.map((field) => search[field]), offset, route.visit],
  );
  const searching = FIELDS.some((field) => search[field] !== '');
  return (
    <Page title="Transactions" intro="Every voucher and master write, from acceptance to the books. Open one to see the XML and any error.">
      <Panel title="Search">
        <form
          class="form-grid"
          role="search"
          aria-label="Search transactions"
          onSubmit={(event) => {
            event.preventDefault();
            const trimmed = Object.fromEntries(FIELDS.map((field) => [field, draft[field].trim()])) as Search;
            navigate(listHref(trimmed, 0));
          }}
        >
          <TextInput label="Voucher number" value={draft.voucher_number} onInput={set('voucher_number')} placeholder="e.g. INV-1001" />
          <TextInput label="Party" value={draft.party} onInput={set('party')} placeholder="part of the party ledger" />
          <TextInput label="Amount" value={draft.amount} onInput={set('amount')} inputMode="decimal" placeholder="e.g. 1180 or 250.50" />
          <TextInput label="Date from" type="date" value={draft.date_from} onInput={set('date_from')} />
          <TextInput label="Date to" type="date" value={draft.date_to} onInput={set('date_to')} />
          <TextInput label="Company id" value={draft.company_id} onInput={set('company_id')} inputMode="numeric" placeholder="any company" />
          <Select label="Status" value={draft.status} onChange={set('status')} options={STATUS_OPTIONS} />
          <div class="form-actions">
            <button type="submit">Search</button>
            {searching && (
              <a class="button secondary" href={href('transactions')} onClick={() => setDraft(Object.fromEntries(FIELDS.map((f) => [f, ''])) as Search)}>
                Clear
              </a>
            )}
          </div>
        </form>
      </Panel>
      <Panel title="Results">
        <LoadedView loaded={results} what="the transactions">
          {(data) => (
            <>
              <p class="muted" aria-live="polite">
                {data.total === 0 ? '' : `${data.total} ${data.total === 1 ? 'transaction' : 'transactions'}${searching ? ' match' : ''}, newest first.`}
              </p>
              <Table
                caption="Transactions"
                rows={data.transactions}
                rowKey={(t) => t.job_id}
                empty={searching ? 'No transaction matches this search.' : 'No transactions yet. They appear when an application writes a voucher or master.'}
                columns={[
                  { title: 'Transaction', cell: (t) => <a href={href('transactions', t.job_id)}>{t.transaction_id}</a> },
                  { title: 'Company', cell: (t) => <a href={href('companies', t.company_id)}>{t.company_name}</a> },
                  { title: 'Voucher', cell: (t) => <VoucherCell transaction={t} /> },
                  { title: 'Party', cell: (t) => t.party ?? <span class="muted">—</span> },
                  { title: 'Amount', cell: (t) => (t.amount === null ? <span class="muted">—</span> : <span class="amount">{formatAmount(t.amount)}</span>) },
                  { title: 'Date', cell: (t) => t.date ?? <span class="muted">—</span> },
                  { title: 'Status', cell: (t) => <StatusCell transaction={t} /> },
                  { title: 'Accepted', cell: (t) => <When at={t.created_at} /> },
                ]}
              />
              <div class="pager">
                {offset > 0 && <a href={listHref(search, Math.max(0, offset - PAGE_SIZE))}>Newer</a>}
                {offset + PAGE_SIZE < data.total && <a href={listHref(search, offset + PAGE_SIZE)}>Older</a>}
              </div>
            </>
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}

export function formatAmount(amount: number): string {
  return amount.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function VoucherCell({ transaction: t }: { transaction: ConsoleTransactionSummaryOut }) {
  if (t.job_type === 'master') return <span>{t.master_name ?? t.event_type}</span>;
  return (
    <span>
      {t.voucher_number ?? '—'} <Renumbered sent={t.voucher_number} books={t.books_voucher_number} />{' '}
      <span class="muted">{t.voucher_type ?? t.event_type}</span>
    </span>
  );
}

/**
 * The books' number beside the one sent, when they differ: under automatic numbering TallyPrime
 * discards the number a write sends and gives its own, and that is the number on the printed voucher.
 */
export function Renumbered({ sent, books }: { sent: string | null; books: string | null }) {
  if (books === null || books === sent) return null;
  return (
    <span class="renumbered" title="The books numbered this voucher themselves (automatic numbering): this is the number in TallyPrime">
      → {books} in the books
    </span>
  );
}

function StatusCell({ transaction: t }: { transaction: ConsoleTransactionSummaryOut }) {
  return (
    <span class="status-cell">
      <StatusBadge status={t.status} />
      {t.status === 'failed' && t.error_label && <span class="muted"> {t.error_label}</span>}
      {t.waiting_reason && <span class="muted"> {t.waiting_reason.message}</span>}
    </span>
  );
}
