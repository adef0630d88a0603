// One company: its health and queue (who it belongs to, the connector and when it was last seen, the
// books company, writes queued and failed, and why they wait), pairing with a connector's books company,
// the customer link (attach / detach), disconnect, the masters and reports settings and pulled-data counts.
import { useState } from 'preact/hooks';
import type { CompanyOut, ConnectorListOut, ConsoleCompanyOverviewEnvelopeOut, ConsolePulledCountsOut, OperatorCompanyOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { Badge, Checkbox, ErrorNotice, LoadedView, Page, Panel, When, useAction, useAutoRefresh, useLoad } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { companyHealth } from '../company-health.js';
import { EndUserAdvice } from '../end-user-advice.js';
import { href } from '../router.js';
import { QueueCounts } from './companies-page.js';
import { PairPanel } from './company-pair-panel.js';
import { CustomerLinkPanel, DisconnectPanel } from './company-support-panels.js';
import { useCan } from '../operator-context.js';
import { AuditTrailPanel } from './audit-trail.js';

const REFRESH_MS = 15_000;
type ConnectorList = z.infer<typeof ConnectorListOut>;

export function CompanyPage({ companyId }: { companyId: number }) {
  const api = useApi();
  const loaded = useLoad(async () => {
    const [{ company: overview }, { company }] = await Promise.all([
      api.get<ConsoleCompanyOverviewEnvelopeOut>(`/admin/v1/console/companies/${companyId}`),
      api.get<OperatorCompanyOut>(`/admin/v1/companies/${companyId}`),
    ]);
    const query = { application_id: company.application_id };
    const [connectors, pulled] = await Promise.all([
      api.get<ConnectorList>(withQuery('/admin/v1/connectors', query)),
      api.get<ConsolePulledCountsOut>(withQuery('/admin/v1/console/pulled-data', query)),
    ]);
    return { overview, company, connectors: connectors.connectors, pulled: pulled.companies.find((p) => p.company_id === companyId) };
  }, [companyId]);
  useAutoRefresh(loaded.reload, REFRESH_MS);
  // Actions the role may not take are not shown (the relay refuses them anyway).
  const canSupport = useCan('support');
  const canAdmin = useCan('admin');

  return (
    <LoadedView loaded={loaded} what="the company">
      {({ overview, company, connectors, pulled }) => {
        const health = companyHealth(overview);
        return (
          <Page
            title={overview.name}
            intro={`Company ${overview.company_id} of ${overview.application_name ?? overview.application_id}`}
            actions={
              <a class="button secondary" href={withQuery(href('transactions'), { company_id: overview.company_id })}>
                Transactions
              </a>
            }
          >
            <Panel title="Health">
              <p>
                {/* When writes wait for the same cause, the notice below says it: the cause is said once. */}
                <Badge tone={health.tone}>{health.label}</Badge> {blocked(overview) ? null : health.explanation}
              </p>
              {!blocked(overview) && <EndUserAdvice message={health.userMessage} fixBy={health.fixBy} />}
              <dl class="facts">
                <dt>Customer</dt>
                <dd>
                  {overview.customer_id ? (
                    <>
                      {overview.customer_name ?? overview.customer_id} <code class="muted">{overview.customer_id}</code>
                    </>
                  ) : (
                    'Not attached to a customer'
                  )}
                </dd>
                <dt>Books company</dt>
                <dd>{overview.books_company_name ?? overview.books_company_guid ?? 'Not paired'}</dd>
                <dt>Connector</dt>
                <dd>{overview.connector_machine ? `${overview.connector_machine} (${overview.connector_online ? 'online' : 'offline'})` : '—'}</dd>
                <dt>Last seen</dt>
                <dd>
                  <When at={overview.connector_last_seen_at} />
                </dd>
                <dt>Writes</dt>
                <dd>
                  <QueueCounts company={overview} />
                  {overview.oldest_queued_at && (
                    <span class="muted">
                      {' '}
                      · oldest queued <When at={overview.oldest_queued_at} />
                    </span>
                  )}
                </dd>
              </dl>
              <WhyTheyWait company={overview} />
            </Panel>
            {canSupport && <PairPanel company={overview} connectors={connectors} onPaired={loaded.reload} />}
            {canSupport && <DisconnectPanel company={company} onDisconnected={loaded.reload} />}
            {canSupport && <CustomerLinkPanel company={company} onChanged={loaded.reload} />}
            {canAdmin && <SettingsPanel company={company} onSaved={loaded.reload} />}
            <AuditTrailPanel objectType="company" objectId={String(companyId)} title="Who paired or changed it" reloadWhen={overview} />
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

/** Writes wait for something support can act on (not merely the import in progress). */
function blocked(company: ConsoleCompanyOverviewEnvelopeOut['company']): boolean {
  return company.waiting_reason !== null && company.waiting_reason.code !== 'importing';
}

function WhyTheyWait({ company }: { company: ConsoleCompanyOverviewEnvelopeOut['company'] }) {
  const waiting = company.jobs_queued + company.jobs_processing;
  if (waiting === 0) return <p class="muted">No write of this company is waiting.</p>;
  const reason = company.waiting_reason;
  return (
    <div class={`notice ${reason && reason.code !== 'importing' ? 'notice-warning' : 'notice-info'}`} role="status" aria-label="Why the writes wait">
      <p>
        <strong>
          {waiting} {waiting === 1 ? 'write waits' : 'writes wait'}.
        </strong>{' '}
        {reason ? reason.message : 'Nothing holds them back: the connector takes them at its next claim, within seconds.'}
      </p>
      {reason && <EndUserAdvice message={reason.user_message} fixBy={reason.fix_by} />}
    </div>
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

