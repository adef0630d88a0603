// Connectors: the program on each customer machine, whether it is online, its version and the books.
import type { ConnectorListOut, OperatorCustomerListOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { Badge, LoadedView, Page, Panel, Table, When, useAutoRefresh, useLoad } from '@ledgerwire/ui-kit';

type ConnectorList = z.infer<typeof ConnectorListOut>;
type CustomerList = z.infer<typeof OperatorCustomerListOut>;

const REFRESH_MS = 15_000;

export function ConnectorsPage() {
  const api = useApi();
  // Customers by id, so each connector shows whose it is by name.
  const connectors = useLoad(async () => {
    const [list, customers] = await Promise.all([api.get<ConnectorList>('/admin/v1/connectors'), api.get<CustomerList>('/admin/v1/customers')]);
    return { connectors: list.connectors, customerNames: new Map(customers.customers.map((c) => [c.id, c.name])) };
  }, []);
  useAutoRefresh(connectors.reload, REFRESH_MS);
  return (
    <Page
      title="Connectors"
      intro="A connector runs on a customer’s machine next to the books. It enrols with the customer’s token and then reports its state here."
      actions={
        <button type="button" class="secondary" onClick={connectors.reload}>
          Refresh
        </button>
      }
    >
      <Panel title="All connectors">
        <LoadedView loaded={connectors} what="the connectors">
          {(data) => (
            <Table
              caption="Connectors"
              rows={data.connectors}
              rowKey={(c) => c.id}
              empty="No connector has enrolled yet. The end user installs the connector and enters their customer token."
              columns={[
                { title: 'Machine', cell: (c) => c.machine_name },
                { title: 'Connection', cell: (c) => <Badge tone={c.online ? 'good' : 'bad'}>{c.online ? 'online' : 'offline'}</Badge> },
                { title: 'Version', cell: (c) => c.version ?? '—' },
                { title: 'Books', cell: (c) => <Badge tone={c.books_running ? 'good' : 'warn'}>{c.books_running ? 'running' : 'not running'}</Badge> },
                {
                  title: 'Open companies',
                  cell: (c) => (c.open_companies.length === 0 ? <span class="muted">none</span> : c.open_companies.map((o) => o.name).join(', ')),
                },
                { title: 'Customer', cell: (c) => data.customerNames.get(c.customer_id) ?? <code>{c.customer_id}</code> },
                { title: 'Last seen', cell: (c) => <When at={c.last_seen_at} /> },
              ]}
            />
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}
