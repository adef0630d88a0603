// Webhook endpoints of a tenant or an application, as Svix's dashboard shows them: each endpoint with
// its actions (send a test event, disable or enable, delete) and its delivery history; a delivery
// opens to its request payload and every attempt's response (webhook-delivery-detail.tsx), and can be
// sent again.
import { useState } from 'preact/hooks';
import type { ConsoleWebhookDeliveriesOut, ConsoleWebhookListOut, ConsoleWebhookTestOut, TenantWebhookCreatedOut, WebhookDeliveryOut, WebhookEndpointOut } from '@ledgerwire/shared';
import { Badge, ErrorNotice, LoadedView, Notice, OneTimeSecret, Page, Panel, StatusBadge, Table, TextInput, When, useAction, useLoad } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { withQuery } from '../api-client.js';
import { href } from '../router.js';
import { useConfirmDialog } from '../widgets/confirm-dialog.js';
import { DeliveryDetail } from './webhook-delivery-detail.js';

type Owner = Readonly<{ kind: 'tenant' | 'application'; id: string }>;

export function WebhooksPage({ owner }: { owner: Owner }) {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const ownerQuery = { owner_kind: owner.kind, owner_id: owner.id };
  const endpoints = useLoad(() => api.get<ConsoleWebhookListOut>(withQuery('/admin/v1/console/webhooks', ownerQuery)), [owner.kind, owner.id]);
  const back = owner.kind === 'tenant' ? href('tenants', owner.id) : href('applications', owner.id);
  return (
    <Page
      title="Webhooks"
      intro={owner.kind === 'tenant' ? 'Message status webhooks of this tenant.' : 'Write outcome, connector, books and company webhooks of this application.'}
      actions={
        <a class="button secondary" href={back}>
          Back to {owner.kind}
        </a>
      }
    >
      {owner.kind === 'tenant' && canAdmin && <NewTenantWebhookForm tenantId={owner.id} onCreated={endpoints.reload} />}
      <LoadedView loaded={endpoints} what="the webhook endpoints">
        {(data) =>
          data.webhooks.length === 0 ? (
            <Panel title="Endpoints">
              <p class="empty">
                No webhook endpoints.{' '}
                {owner.kind === 'tenant' ? 'Add one above to be told when messages are sent, delivered, opened or bounce.' : 'The application adds them with POST /api/v1/webhooks.'}
              </p>
            </Panel>
          ) : (
            data.webhooks.map((endpoint) => <EndpointPanel key={endpoint.id} owner={owner} endpoint={endpoint} onChanged={endpoints.reload} />)
          )
        }
      </LoadedView>
    </Page>
  );
}

function NewTenantWebhookForm({ tenantId, onCreated }: { tenantId: string; onCreated: () => void }) {
  const api = useApi();
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const action = useAction();
  return (
    <Panel title="New endpoint">
      {secret && <OneTimeSecret label="Signing secret" value={secret} onDismiss={() => setSecret(undefined)} />}
      <form
        class="form-row"
        aria-label="New webhook endpoint"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            const created = await api.post<TenantWebhookCreatedOut>(`/admin/v1/tenants/${encodeURIComponent(tenantId)}/webhooks`, { url: url.trim() });
            setSecret(created.webhook.secret);
            setUrl('');
            onCreated();
          });
        }}
      >
        <TextInput label="Endpoint URL" type="url" value={url} onInput={setUrl} placeholder="https://example.com/webhooks/messages" required />
        <button type="submit" disabled={action.busy}>
          Add endpoint
        </button>
      </form>
      <ErrorNotice error={action.error} title="The endpoint was not added." />
    </Panel>
  );
}

function EndpointPanel({ owner, endpoint, onChanged }: { owner: Owner; endpoint: WebhookEndpointOut; onChanged: () => void }) {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const canSupport = useCan('support');
  const api = useApi();
  const ownerQuery = { owner_kind: owner.kind, owner_id: owner.id };
  const base = `/admin/v1/console/webhooks/${encodeURIComponent(endpoint.id)}`;
  const deliveries = useLoad(() => api.get<ConsoleWebhookDeliveriesOut>(withQuery(`${base}/deliveries`, { ...ownerQuery, limit: 50 })), [endpoint.id]);
  const [inspected, setInspected] = useState<string | undefined>(undefined);
  // One action per endpoint, so one failure is reported once, under the words of what was tried.
  const action = useAction();
  const [failed, setFailed] = useState('');
  const [done, setDone] = useState<string | undefined>(undefined);
  const { confirm, dialog } = useConfirmDialog();

  const run = (what: string, work: () => Promise<string>) => {
    setDone(undefined);
    setFailed(what);
    void action.run(async () => {
      setDone(await work());
      deliveries.reload();
    });
  };
  const sendTest = () =>
    run('The test event was not sent.', async () => {
      const { delivery } = await api.post<ConsoleWebhookTestOut>(withQuery(`${base}/test`, ownerQuery));
      setInspected(delivery.id);
      return `Test event queued as delivery ${delivery.id}. Its attempts appear below.`;
    });
  const setEnabled = (enabled: boolean) =>
    run(enabled ? 'The endpoint was not enabled.' : 'The endpoint was not disabled.', async () => {
      await api.post(withQuery(`${base}/state`, ownerQuery), { enabled });
      onChanged();
      return enabled ? 'Enabled. New events are delivered to this endpoint again.' : 'Disabled. Nothing is sent to this endpoint; what was waiting for it was cancelled.';
    });
  const remove = async () => {
    const yes = await confirm({
      title: 'Delete this webhook endpoint?',
      message: (
        <p>
          Nothing more is sent to <span class="webhook-url">{endpoint.url}</span>; deliveries waiting for it are cancelled. The history stays.
        </p>
      ),
      confirmLabel: 'Delete endpoint',
      danger: true,
    });
    if (!yes) return;
    setFailed('The endpoint was not deleted.');
    void action.run(async () => {
      await api.del(withQuery(base, ownerQuery));
      onChanged();
    });
  };
  const redeliver = (delivery: WebhookDeliveryOut) =>
    run('It was not sent again.', async () => {
      const result = await api.post<{ delivery: { id: string } }>(`/admin/v1/webhook-deliveries/${encodeURIComponent(delivery.id)}/redeliver`);
      setInspected(result.delivery.id);
      return `Sent again as delivery ${result.delivery.id}. Its attempts appear below.`;
    });

  return (
    <section class="panel webhook-endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      {dialog}
      <header class="panel-header">
        <h2 class="webhook-url">{endpoint.url}</h2>
        <Badge tone={endpoint.enabled ? 'good' : 'bad'}>{endpoint.enabled ? 'enabled' : 'disabled'}</Badge>
      </header>
      {endpoint.disabled_reason && <Notice tone="warning">Disabled: {endpoint.disabled_reason}.</Notice>}
      <p class="muted">
        Events: {endpoint.events.join(', ')} · <code>{endpoint.id}</code>
      </p>
      <div class="row" role="group" aria-label={`Actions on ${endpoint.url}`}>
        <button type="button" class="secondary small" disabled={action.busy || !endpoint.enabled || !canSupport} onClick={sendTest}>
          Send test event
        </button>
        {endpoint.enabled ? (
          <button type="button" class="secondary small" disabled={action.busy || !canSupport} onClick={() => setEnabled(false)}>
            Disable
          </button>
        ) : (
          <button type="button" class="secondary small" disabled={action.busy || !canSupport} onClick={() => setEnabled(true)}>
            Enable
          </button>
        )}
        <button type="button" class="danger small" disabled={action.busy || !canAdmin} onClick={() => void remove()}>
          Delete
        </button>
      </div>
      {done && <Notice tone="success">{done}</Notice>}
      <ErrorNotice error={action.error} title={failed} />
      <LoadedView loaded={deliveries} what="the delivery history">
        {(data) => (
          <Table
            caption={`Deliveries to ${endpoint.url}`}
            rows={data.deliveries}
            rowKey={(d) => d.id}
            empty="Nothing has been delivered to this endpoint yet."
            columns={[
              { title: 'Event', cell: (d) => d.event_type },
              { title: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
              { title: 'Attempts', cell: (d) => <LastAnswer delivery={d} /> },
              { title: 'Next attempt', cell: (d) => <When at={d.next_attempt_at} /> },
              { title: 'Created', cell: (d) => <When at={d.created_at} /> },
              {
                title: 'Actions',
                cell: (d) => (
                  <span class="row">
                    <button type="button" class="secondary small" aria-label={`Inspect ${d.id}`} aria-pressed={inspected === d.id} onClick={() => setInspected(inspected === d.id ? undefined : d.id)}>
                      Inspect
                    </button>
                    <button type="button" class="small" aria-label={`Redeliver ${d.id}`} disabled={action.busy || !endpoint.enabled || !canSupport} onClick={() => redeliver(d)}>
                      Redeliver
                    </button>
                  </span>
                ),
              },
            ]}
          />
        )}
      </LoadedView>
      {inspected && <DeliveryDetail key={`${inspected}-${deliveries.data?.deliveries.find((d) => d.id === inspected)?.attempt_count ?? 0}`} deliveryId={inspected} onClose={() => setInspected(undefined)} />}
    </section>
  );
}

function LastAnswer({ delivery }: { delivery: WebhookDeliveryOut }) {
  const last = delivery.attempts[delivery.attempts.length - 1];
  if (!last) return <span class="muted">none yet</span>;
  return (
    <span>
      {delivery.attempt_count} · last {last.status_code === null ? 'no answer' : `HTTP ${last.status_code}`}
    </span>
  );
}
