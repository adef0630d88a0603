// Transactions (jobs written to the books) across applications, filtered by company and status.
import { useState } from 'preact/hooks';
import type { OperatorTransactionListOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { href, navigate, type Route } from '../router.js';
import { LoadedView, Page, Panel, Select, StatusBadge, Table, TextInput, When } from '../ui/components.js';
import { useLoad } from '../ui/use-load.js';

type TransactionList = z.infer<typeof OperatorTransactionListOut>;

const STATUS_OPTIONS = [['', 'Any status'], ['queued', 'queued'], ['processing', 'processing'], ['completed', 'completed'], ['failed', 'failed']] as const;
const PAGE_SIZE = 50;

export function TransactionsPage({ route }: { route: Route }) {
  const api = useApi();
  const companyId = route.query.get('company_id') ?? '';
  const status = route.query.get('status') ?? '';
  const offset = Number(route.query.get('offset') ?? '0') || 0;
  const [draftCompany, setDraftCompany] = useState(companyId);
  const [draftStatus, setDraftStatus] = useState(status);
  const companyValid = companyId === '' || /^\d+$/.test(companyId);
  const results = useLoad(
    () =>
      companyValid
        ? api.get<TransactionList>(withQuery('/admin/v1/transactions', { company_id: companyId, status, limit: PAGE_SIZE, offset }))
        : Promise.reject(new Error('The company id is a whole number, as shown on the companies page.')),
    [companyId, status, offset, route.visit],
  );
  const listHref = (next: { company_id: string; status: string; offset: number }) =>
    withQuery(href('transactions'), { company_id: next.company_id, status: next.status, offset: next.offset || undefined });
  return (
    <Page title="Transactions" intro="Every voucher and master write, from acceptance to the books. Open one to see the XML sent and any error.">
      <Panel title="Filter">
        <form
          class="form-row"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            navigate(listHref({ company_id: draftCompany.trim(), status: draftStatus, offset: 0 }));
          }}
        >
          <TextInput label="Company id" value={draftCompany} onInput={setDraftCompany} inputMode="numeric" placeholder="any company" />
          <Select label="Status" value={draftStatus} onChange={setDraftStatus} options={STATUS_OPTIONS} />
          <button type="submit">Filter</button>
        </form>
      </Panel>
      <Panel title="Results">
        <LoadedView loaded={results} what="the transactions">
          {(data) => (
            <>
              <Table
                caption="Transactions"
                rows={data.transactions}
                rowKey={(t) => t.job_id}
                empty={companyId || status ? 'No transaction matches this filter.' : 'No transactions yet. They appear when an application writes a voucher or master.'}
                columns={[
                  { title: 'Transaction', cell: (t) => <a href={href('transactions', t.job_id)}>{t.transaction_id}</a> },
                  { title: 'Company', cell: (t) => <a href={href('companies', t.service_company_id)}>{t.service_company_id}</a> },
                  { title: 'Kind', cell: (t) => t.event_type },
                  { title: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
                  { title: 'Error', cell: (t) => t.error_label ?? '' },
                  { title: 'Retries', cell: (t) => `${t.retry_count}/${t.max_retries}` },
                  { title: 'Created', cell: (t) => <When at={t.created_at} /> },
                ]}
              />
              <div class="pager">
                {offset > 0 && <a href={listHref({ company_id: companyId, status, offset: Math.max(0, offset - PAGE_SIZE) })}>Newer</a>}
                {offset + PAGE_SIZE < data.total && <a href={listHref({ company_id: companyId, status, offset: offset + PAGE_SIZE })}>Older</a>}
              </div>
            </>
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}
