// One company: health, pairing with a connector's books company (support pairs), the customer link
// (attach / detach), disconnect, the masters and reports settings, pulled-data counts and a link to
// its transactions.
import { useState } from 'preact/hooks';
import type { CompanyOut, ConnectorListOut, ConnectorRecordOut, ConsolePulledCountsOut, OperatorCompanyOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { companyHealth } from '../company-health.js';
import { href } from '../router.js';
import { Badge, Checkbox, ErrorNotice, LoadedView, Notice, Page, Panel, Select, When } from '../ui/components.js';
import { useAutoRefresh } from '../ui/use-auto-refresh.js';
import { useAction, useLoad } from '../ui/use-load.js';
import { CustomerLinkPanel, DisconnectPanel } from './company-support-panels.js';

const REFRESH_MS = 15_000;
type Company = OperatorCompanyOut['company'];
type ConnectorList = z.infer<typeof ConnectorListOut>;

export function CompanyPage({ companyId }: { companyId: number }) {
  const api = useApi();
  const loaded = useLoad(async () => {
    const { company } = await api.get<OperatorCompanyOut>(`/admin/v1/companies/${companyId}`);
    const query = { application_id: company.application_id };
    const [connectors, pulled] = await Promise.all([
      api.get<ConnectorList>(withQuery('/admin/v1/connectors', query)),
      api.get<ConsolePulledCountsOut>(withQuery('/admin/v1/console/pulled-data', query)),
    ]);
    return { company, connectors: connectors.connectors, pulled: pulled.companies.find((p) => p.company_id === companyId) };
  }, [companyId]);
  useAutoRefresh(loaded.reload, REFRESH_MS);

  return (
    <LoadedView loaded={loaded} what="the company">
      {({ company, connectors, pulled }) => {
        const health = companyHealth(company, connectors);
        return (
          <Page
            title={company.name}
            intro={`Company ${company.company_id} · application ${company.application_id}`}
            actions={
              <a class="button secondary" href={withQuery(href('transactions'), { company_id: company.company_id })}>
                Transactions
              </a>
            }
          >
            <Panel title="Health">
              <p>
                <Badge tone={health.tone}>{health.label}</Badge> {health.explanation}
              </p>
              <dl class="facts">
                <dt>Customer</dt>
                <dd>{company.customer_id ? <code>{company.customer_id}</code> : 'Not attached to a customer'}</dd>
                <dt>Books company</dt>
                <dd>{company.books_company_name ?? company.books_company_guid ?? 'Not paired'}</dd>
                <dt>Connector</dt>
                <dd>{company.connector_id ? <code>{company.connector_id}</code> : '—'}</dd>
              </dl>
            </Panel>
            <PairPanel company={company} connectors={connectors} onPaired={loaded.reload} />
            <DisconnectPanel company={company} onDisconnected={loaded.reload} />
            <CustomerLinkPanel company={company} onChanged={loaded.reload} />
            <SettingsPanel company={company} onSaved={loaded.reload} />
            <Panel title="Pulled data">
              {pulled ? (
                <dl class="facts" aria-label="Pulled data counts">
                  <dt>Vouchers pending</dt>
                  <dd>{pulled.vouchers_pending}</dd>
                  <dt>Vouchers acknowledged</dt>
                  <dd>{pulled.vouchers_acknowledged}</dd>
                  <dt>Vouchers deleted in the books</dt>
                  <dd>{pulled.vouchers_deleted}</dd>
                  <dt>Masters</dt>
                  <dd>{pulled.masters}</dd>
                  <dt>Last pulled</dt>
                  <dd>
                    <When at={pulled.last_pulled_at} />
                  </dd>
                </dl>
              ) : (
                <p class="empty">Nothing has been pulled from the books for this company yet.</p>
              )}
            </Panel>
          </Page>
        );
      }}
    </LoadedView>
  );
}

function PairPanel({ company, connectors, onPaired }: { company: Company; connectors: readonly ConnectorRecordOut[]; onPaired: () => void }) {
  const api = useApi();
  const usable = connectors.filter((c) => c.open_companies.length > 0);
  const [connectorId, setConnectorId] = useState(company.connector_id ?? usable[0]?.id ?? '');
  const connector = connectors.find((c) => c.id === connectorId);
  const [guid, setGuid] = useState(company.books_company_guid ?? connector?.open_companies[0]?.guid ?? '');
  const action = useAction();
  const [done, setDone] = useState(false);

  if (connectors.length === 0) {
    return (
      <Panel title="Pairing">
        <Notice>
          No connector of this application is enrolled yet. Give the customer’s token to the end user: once their connector enrols and
          reports the companies open in the books, you can pair this company here.
        </Notice>
      </Panel>
    );
  }
  const books = connector?.open_companies ?? [];
  return (
    <Panel title="Pairing">
      <form
        class="form-row"
        aria-label="Pair with the books"
        onSubmit={(event) => {
          event.preventDefault();
          setDone(false);
          void action.run(async () => {
            const chosen = books.find((b) => b.guid === guid);
            if (!connector || !chosen) throw new Error('Choose a connector and one of the companies open in its books.');
            await api.post(`/admin/v1/companies/${company.company_id}/pair`, { connector_id: connector.id, books_company_guid: chosen.guid, books_company_name: chosen.name });
            setDone(true);
            onPaired();
          });
        }}
      >
        <Select
          label="Connector"
          value={connectorId}
          onChange={(id) => {
            setConnectorId(id);
            setGuid(connectors.find((c) => c.id === id)?.open_companies[0]?.guid ?? '');
          }}
          options={connectors.map((c) => [c.id, `${c.machine_name} (${c.online ? 'online' : 'offline'})`] as const)}
        />
        {books.length === 0 ? (
          <p class="muted">This connector reports no company open in its books. Ask the user to open the company in the books.</p>
        ) : (
          <Select label="Books company" value={guid} onChange={setGuid} options={books.map((b) => [b.guid, b.name] as const)} />
        )}
        <button type="submit" disabled={action.busy || books.length === 0}>
          {company.paired ? 'Pair again' : 'Pair company'}
        </button>
      </form>
      {done && <Notice tone="success">Paired. Writes for this company now go to that books company.</Notice>}
      <ErrorNotice error={action.error} title="The company was not paired." />
    </Panel>
  );
}

function SettingsPanel({ company, onSaved }: { company: CompanyOut; onSaved: () => void }) {
  const api = useApi();
  const [pullMasters, setPullMasters] = useState(company.pull_masters);
  const [stock, setStock] = useState(company.reports.stock);
  const [gst, setGst] = useState(company.reports.gst);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  return (
    <Panel title="Data from the books">
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          setSaved(false);
          void action.run(async () => {
            await api.patch(`/admin/v1/companies/${company.company_id}`, { pull_masters: pullMasters, reports: { stock, gst } });
            setSaved(true);
            onSaved();
          });
        }}
      >
        <Checkbox label="Pull masters (ledgers, items, …)" checked={pullMasters} onChange={setPullMasters} />
        <Checkbox label="Stock report" checked={stock} onChange={setStock} />
        <Checkbox label="GST report" checked={gst} onChange={setGst} />
        <div class="form-actions">
          <button type="submit" disabled={action.busy}>
            Save settings
          </button>
          {saved && <Badge tone="good">Saved</Badge>}
        </div>
      </form>
      <ErrorNotice error={action.error} title="The settings were not saved." />
    </Panel>
  );
}
