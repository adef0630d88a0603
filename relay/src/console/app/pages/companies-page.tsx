// Companies across applications, with health at a glance and the data pulled from their books.
import type { ConnectorListOut, ConsolePulledCountsOut, OperatorCompanyListOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { companyHealth } from '../company-health.js';
import { href } from '../router.js';
import { Badge, LoadedView, Page, Panel, Table } from '../ui/components.js';
import { useAutoRefresh } from '../ui/use-auto-refresh.js';
import { useLoad } from '../ui/use-load.js';

type CompanyList = z.infer<typeof OperatorCompanyListOut>;

const REFRESH_MS = 15_000;
type ConnectorList = z.infer<typeof ConnectorListOut>;

export function CompaniesPage() {
  return (
    <Page title="Companies" intro="Every company the applications created, whether it is paired with the books, and how it is doing now.">
      <Panel title="All companies">
        <CompaniesTable />
      </Panel>
    </Page>
  );
}

/** Companies (of one application, or all) with health and pulled-data counts. */
export function CompaniesTable({ applicationId }: { applicationId?: string }) {
  const api = useApi();
  const loaded = useLoad(async () => {
    const query = { application_id: applicationId };
    const [companies, connectors, pulled] = await Promise.all([
      api.get<CompanyList>(withQuery('/admin/v1/companies', query)),
      api.get<ConnectorList>(withQuery('/admin/v1/connectors', query)),
      api.get<ConsolePulledCountsOut>(withQuery('/admin/v1/console/pulled-data', query)),
    ]);
    return { companies: companies.companies, connectors: connectors.connectors, pulled: new Map(pulled.companies.map((p) => [p.company_id, p])) };
  }, [applicationId]);
  useAutoRefresh(loaded.reload, REFRESH_MS);
  return (
    <LoadedView loaded={loaded} what="the companies">
      {(data) => (
        <Table
          caption="Companies"
          rows={data.companies}
          rowKey={(c) => String(c.company_id)}
          empty="No companies yet. An application creates them through POST /api/v1/companies; pair them here once a connector is enrolled."
          columns={[
            { title: 'Company', cell: (c) => <a href={href('companies', c.company_id)}>{c.name}</a> },
            { title: 'Id', cell: (c) => c.company_id },
            {
              title: 'Health',
              cell: (c) => {
                const health = companyHealth(c, data.connectors);
                return (
                  <span title={health.explanation}>
                    <Badge tone={health.tone}>{health.label}</Badge>
                  </span>
                );
              },
            },
            { title: 'Books company', cell: (c) => c.books_company_name ?? (c.books_company_guid ? <code>{c.books_company_guid}</code> : '—') },
            { title: 'Customer', cell: (c) => (c.customer_id ? <code>{c.customer_id}</code> : <span class="muted">not attached</span>) },
            {
              title: 'Pulled data',
              cell: (c) => {
                const counts = data.pulled.get(c.company_id);
                if (!counts) return '—';
                return `${counts.vouchers_pending} pending · ${counts.vouchers_acknowledged} acknowledged · ${counts.masters} masters`;
              },
            },
          ]}
        />
      )}
    </LoadedView>
  );
}
