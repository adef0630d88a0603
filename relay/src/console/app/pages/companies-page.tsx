// Companies across applications — the page support lands on: found by name (the company's, its
// customer's or its books company's), each with its customer, connector machine and books company by
// name, when the connector was last seen, how many writes are queued and failed, and why they wait.
import { useState } from 'preact/hooks';
import type { ConsoleCompanyOverviewOut, ConsoleCompanySearchOut } from '@ledgerwire/shared';
import { Badge, LoadedView, Page, Panel, Table, TextInput, When, useAutoRefresh, useLoad } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { companyHealth } from '../company-health.js';
import { href, navigate, type Route } from '../router.js';

const REFRESH_MS = 15_000;
const PAGE_SIZE = 50;

export function CompaniesPage({ route }: { route: Route }) {
  const q = route.query.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  return (
    <Page title="Companies" intro="Every company the applications created: who it belongs to, whether its writes reach the books, and why they wait when they do not.">
      <Panel title="Find a company">
        <form
          class="form-row"
          role="search"
          aria-label="Find a company"
          onSubmit={(event) => {
            event.preventDefault();
            navigate(withQuery(href('companies'), { q: draft.trim() }));
          }}
        >
          <TextInput label="Name" value={draft} onInput={setDraft} placeholder="company, customer or books company" hint="Any part of the name, any case" />
          <button type="submit">Search</button>
        </form>
      </Panel>
      <Panel title={q ? `Companies matching “${q}”` : 'All companies'}>
        <CompaniesTable q={q} visit={route.visit} />
      </Panel>
    </Page>
  );
}

/** Companies (of one application, or all; optionally matching a name) with health and their queue. */
export function CompaniesTable({ applicationId, q, visit }: { applicationId?: string; q?: string; visit?: number }) {
  const api = useApi();
  const loaded = useLoad(
    () => api.get<ConsoleCompanySearchOut>(withQuery('/admin/v1/console/companies', { application_id: applicationId, q, limit: PAGE_SIZE })),
    [applicationId, q, visit],
  );
  useAutoRefresh(loaded.reload, REFRESH_MS);
  return (
    <LoadedView loaded={loaded} what="the companies">
      {(data) => (
        <>
          <Table
            caption="Companies"
            rows={data.companies}
            rowKey={(c) => String(c.company_id)}
            empty={
              q
                ? `No company, customer or books company has a name containing “${q}”.`
                : 'No companies yet. An application creates them through POST /api/v1/companies; pair them here once a connector is enrolled.'
            }
            columns={[
              { title: 'Company', cell: (c) => <a href={href('companies', c.company_id)}>{c.name}</a> },
              { title: 'Customer', cell: (c) => c.customer_name ?? <span class="muted">not attached</span> },
              ...(applicationId === undefined ? [{ title: 'Application', cell: (c: ConsoleCompanyOverviewOut) => c.application_name ?? c.application_id }] : []),
              { title: 'Books company', cell: (c) => c.books_company_name ?? (c.paired ? <span class="muted">unnamed</span> : <span class="muted">not paired</span>) },
              { title: 'Connector', cell: (c) => <ConnectorCell company={c} /> },
              { title: 'Health', cell: (c) => <HealthBadge company={c} /> },
              { title: 'Writes', cell: (c) => <QueueCounts company={c} /> },
              { title: 'Why they wait', cell: (c) => c.waiting_reason?.message ?? <span class="muted">{c.jobs_queued + c.jobs_processing > 0 ? 'being delivered' : 'nothing waits'}</span> },
            ]}
          />
          {data.total > data.companies.length && (
            <p class="muted">
              Showing the first {data.companies.length} of {data.total}. Search by name to narrow the list.
            </p>
          )}
        </>
      )}
    </LoadedView>
  );
}

function ConnectorCell({ company }: { company: ConsoleCompanyOverviewOut }) {
  if (company.connector_machine === null) return <span class="muted">—</span>;
  return (
    <span>
      {company.connector_machine}{' '}
      <span class="muted">
        · last seen <When at={company.connector_last_seen_at} />
      </span>
    </span>
  );
}

export function HealthBadge({ company }: { company: ConsoleCompanyOverviewOut }) {
  const health = companyHealth(company);
  return (
    <span title={health.explanation}>
      <Badge tone={health.tone}>{health.label}</Badge>
    </span>
  );
}

/** Queued and failed counts, each a link to those transactions. */
export function QueueCounts({ company }: { company: ConsoleCompanyOverviewOut }) {
  const link = (status: string) => withQuery(href('transactions'), { company_id: company.company_id, status });
  return (
    <span class="queue-counts">
      <a href={link('queued')} aria-label={`${company.jobs_queued} queued writes of ${company.name}`}>
        {company.jobs_queued} queued
      </a>
      {company.jobs_processing > 0 && <span> · {company.jobs_processing} importing</span>}
      {' · '}
      <a href={link('failed')} class={company.jobs_failed > 0 ? 'failed-count' : undefined} aria-label={`${company.jobs_failed} failed writes of ${company.name}`}>
        {company.jobs_failed} failed
      </a>
    </span>
  );
}
