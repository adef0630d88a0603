// Webhook endpoints of a tenant or an application, with each endpoint's delivery history (every
// attempt, its status code and error) and redeliver.
import { useState } from 'preact/hooks';
import type { ConsoleWebhookDeliveriesOut, ConsoleWebhookListOut, TenantWebhookCreatedOut, WebhookDeliveryOut, WebhookEndpointOut } from '@ledgerwire/shared';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { href } from '../router.js';
import { Badge, ErrorNotice, LoadedView, Notice, OneTimeSecret, Page, Panel, StatusBadge, Table, TextInput, When } from '../ui/components.js';
import { useAction, useLoad } from '../ui/use-load.js';

type Owner = Readonly<{ kind: 'tenant' | 'application'; id: string }>;

export function WebhooksPage({ owner }: { owner: Owner }) {
  const api = useApi();
  const ownerQuery = { owner_kind: owner.kind, owner_id: owner.id };
  const endpoints = useLoad(() => api.get<ConsoleWebhookListOut>(withQuery('/admin/v1/console/webhooks', ownerQuery)), [owner.kind, owner.id]);
  const back = owner.kind === 'tenant' ? href('tenants', owner.id) : href('applications', owner.id);
  return (
    <Page
      title="Webhooks"
      intro={owner.kind === 'tenant' ? 'Message status webhooks of this tenant.' : 'Connector, books and company webhooks of this application.'}
      actions={
        <a class="button secondary" href={back}>
          Back to {owner.kind}
        </a>
      }
    >
      {owner.kind === 'tenant' && <NewTenantWebhookForm tenantId={owner.id} onCreated={endpoints.reload} />}
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
            data.webhooks.map((endpoint) => <EndpointPanel key={endpoint.id} owner={owner} endpoint={endpoint} />)
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

function EndpointPanel({ owner, endpoint }: { owner: Owner; endpoint: WebhookEndpointOut }) {
  const api = useApi();
  const deliveries = useLoad(
    () =>
      api.get<ConsoleWebhookDeliveriesOut>(
        withQuery(`/admin/v1/console/webhooks/${encodeURIComponent(endpoint.id)}/deliveries`, { owner_kind: owner.kind, owner_id: owner.id, limit: 50 }),
      ),
    [endpoint.id],
  );
  const [open, setOpen] = useState<string | undefined>(undefined);
  const action = useAction();
  const [redelivered, setRedelivered] = useState<string | undefined>(undefined);
  return (
    <Panel title={endpoint.url} actions={<Badge tone={endpoint.enabled ? 'good' : 'bad'}>{endpoint.enabled ? 'enabled' : 'disabled'}</Badge>}>
      {endpoint.disabled_reason && <Notice tone="warning">Disabled by the relay: {endpoint.disabled_reason}</Notice>}
      <p class="muted">
        Events: {endpoint.events.join(', ')} · <code>{endpoint.id}</code>
      </p>
      {redelivered && <Notice tone="success">Sent again as delivery {redelivered}. Its attempts appear below.</Notice>}
      <ErrorNotice error={action.error} title="It was not sent again." />
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
              { title: 'Attempts', cell: (d) => <Attempts delivery={d} open={open === d.id} onToggle={() => setOpen(open === d.id ? undefined : d.id)} /> },
              { title: 'Next attempt', cell: (d) => <When at={d.next_attempt_at} /> },
              { title: 'Created', cell: (d) => <When at={d.created_at} /> },
              {
                title: 'Actions',
                cell: (d) => (
                  <button
                    type="button"
                    class="small"
                    aria-label={`Redeliver ${d.id}`}
                    disabled={action.busy || !endpoint.enabled}
                    onClick={() =>
                      void action.run(async () => {
                        const result = await api.post<{ delivery: { id: string } }>(`/admin/v1/webhook-deliveries/${encodeURIComponent(d.id)}/redeliver`);
                        setRedelivered(result.delivery.id);
                        deliveries.reload();
                      })
                    }
                  >
                    Redeliver
                  </button>
                ),
              },
            ]}
          />
        )}
      </LoadedView>
    </Panel>
  );
}

function Attempts({ delivery, open, onToggle }: { delivery: WebhookDeliveryOut; open: boolean; onToggle: () => void }) {
  if (delivery.attempts.length === 0) return <span class="muted">none yet</span>;
  const last = delivery.attempts[delivery.attempts.length - 1];
  return (
    <div>
      <button type="button" class="link" aria-expanded={open} onClick={onToggle}>
        {delivery.attempt_count} · last {last?.status_code ?? 'no answer'}
      </button>
      {open && (
        <ol class="attempts" aria-label={`Attempts of ${delivery.id}`}>
          {delivery.attempts.map((a, index) => (
            <li key={index}>
              <When at={a.attempted_at} /> — {a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`} in {a.duration_ms} ms
              {a.error && <span class="muted"> · {a.error}</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
