// One application: API keys with environment and capabilities (the credential is shown once;
// revoke), its customers (rotate a customer's token: the new one is shown once; see their connect
// links) and companies, and a
// link to its webhook endpoints.
import { useState } from 'preact/hooks';
import type { ApiKeyCreatedOut, ApiKeyListOut, ApplicationOut, BridgeCapability, OperatorCustomerListOut, OperatorCustomerTokenOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { withQuery } from '../api-client.js';
import { href } from '../router.js';
import { Badge, Checkbox, ErrorNotice, LoadedView, OneTimeSecret, Page, Panel, Select, StatusBadge, Table, When, useAction, useLoad } from '@ledgerwire/ui-kit';
import { useConfirmDialog } from '../widgets/confirm-dialog.js';
import { CompaniesTable } from './companies-page.js';

type ApplicationAnswer = z.infer<typeof ApplicationOut>;
type KeyList = z.infer<typeof ApiKeyListOut>;
type CustomerList = z.infer<typeof OperatorCustomerListOut>;

const CAPABILITIES: readonly (readonly [BridgeCapability, string])[] = [
  ['pull.master', 'Read masters pulled from the books (pull.master)'],
  ['report.stock', 'Stock reports (report.stock)'],
  ['report.gst', 'GST reports (report.gst)'],
];

export function ApplicationPage({ applicationId }: { applicationId: string }) {
  const api = useApi();
  const loaded = useLoad(() => api.get<ApplicationAnswer>(`/admin/v1/applications/${encodeURIComponent(applicationId)}`), [applicationId]);
  return (
    <LoadedView loaded={loaded} what="the application">
      {({ application }) => (
        <Page
          title={application.name}
          intro={`Application ${application.id}`}
          actions={
            <a class="button secondary" href={href('applications', application.id, 'webhooks')}>
              Webhooks
            </a>
          }
        >
          <KeysPanel applicationId={application.id} />
          <CustomersPanel applicationId={application.id} />
          <Panel title="Companies">
            <CompaniesTable applicationId={application.id} />
          </Panel>
        </Page>
      )}
    </LoadedView>
  );
}

function KeysPanel({ applicationId }: { applicationId: string }) {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const base = `/admin/v1/applications/${encodeURIComponent(applicationId)}/keys`;
  const keys = useLoad(() => api.get<KeyList>(base), [applicationId]);
  const [environment, setEnvironment] = useState('test');
  const [capabilities, setCapabilities] = useState<ReadonlySet<BridgeCapability>>(new Set());
  const [created, setCreated] = useState<ApiKeyCreatedOut | undefined>(undefined);
  const action = useAction();
  const { confirm, dialog } = useConfirmDialog();
  return (
    <Panel title="API keys">
      {dialog}
      {created && (
        <OneTimeSecret label="New credential" value={created.credential} onDismiss={() => setCreated(undefined)}>
          <p class="muted">Send it as <code>Authorization: Bearer &lt;credential&gt;</code>. The relay keeps only a hash of the secret.</p>
        </OneTimeSecret>
      )}
      <form
        class="form-row"
        aria-label="New API key"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            setCreated(await api.post<ApiKeyCreatedOut>(base, { environment, capabilities: [...capabilities] }));
            keys.reload();
          });
        }}
      >
        <Select label="Environment" value={environment} onChange={setEnvironment} options={[['test', 'Test'], ['live', 'Live']]} />
        <fieldset class="checkboxes">
          <legend>Capabilities</legend>
          {CAPABILITIES.map(([capability, label]) => (
            <Checkbox
              key={capability}
              label={label}
              checked={capabilities.has(capability)}
              onChange={(on) => {
                const next = new Set(capabilities);
                if (on) next.add(capability);
                else next.delete(capability);
                setCapabilities(next);
              }}
            />
          ))}
        </fieldset>
        <button type="submit" disabled={action.busy || !canAdmin}>
          Create API key
        </button>
      </form>
      <ErrorNotice error={action.error} />
      <LoadedView loaded={keys} what="the API keys">
        {(data) => (
          <Table
            caption="Application API keys"
            rows={data.keys}
            rowKey={(k) => k.key_id}
            empty="No API keys yet. Create one to let the application call the bridge API."
            columns={[
              { title: 'Key id', cell: (k) => <code>{k.key_id}</code> },
              { title: 'Environment', cell: (k) => <Badge tone={k.environment === 'live' ? 'warn' : 'neutral'}>{k.environment}</Badge> },
              { title: 'Capabilities', cell: (k) => (k.capabilities.length === 0 ? <span class="muted">none</span> : k.capabilities.join(', ')) },
              { title: 'State', cell: (k) => <StatusBadge status={k.revoked_at ? 'revoked' : 'active'} /> },
              { title: 'Created', cell: (k) => <When at={k.created_at} /> },
              {
                title: 'Actions',
                cell: (k) =>
                  k.revoked_at ? null : (
                    <button
                      type="button"
                      class="danger small"
                      aria-label={`Revoke key ${k.key_id}`}
                      disabled={!canAdmin}
                      onClick={async () => {
                        const yes = await confirm({ title: `Revoke key ${k.key_id}?`, message: 'Requests with it are refused at once. This cannot be undone.', confirmLabel: 'Revoke key', danger: true });
                        if (!yes) return;
                        void action.run(async () => {
                          await api.del(`/admin/v1/keys/${encodeURIComponent(k.key_id)}`);
                          keys.reload();
                        });
                      }}
                    >
                      Revoke
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

function CustomersPanel({ applicationId }: { applicationId: string }) {
  const canSupport = useCan('support');
  const api = useApi();
  const customers = useLoad(() => api.get<CustomerList>(withQuery('/admin/v1/customers', { application_id: applicationId })), [applicationId]);
  const [rotated, setRotated] = useState<OperatorCustomerTokenOut['customer'] | undefined>(undefined);
  const action = useAction();
  const { confirm, dialog } = useConfirmDialog();
  return (
    <Panel title="Customers">
      {dialog}
      {rotated && (
        <OneTimeSecret label="New enrolment token" value={rotated.token} onDismiss={() => setRotated(undefined)}>
          <p class="muted">
            Give it to {rotated.name} for their next connector install. The old token no longer enrols a machine; connectors already enrolled keep working.
          </p>
        </OneTimeSecret>
      )}
      <ErrorNotice error={action.error} title="The token was not rotated." />
      <LoadedView loaded={customers} what="the customers">
        {(data) => (
          <Table
            caption="Customers"
            rows={data.customers}
            rowKey={(c) => c.id}
            empty="No customers yet. The application creates them through POST /api/v1/customers; each gets the token its connector enrols with."
            columns={[
              { title: 'Name', cell: (c) => c.name },
              { title: 'Customer id', cell: (c) => <code>{c.id}</code> },
              { title: 'External id', cell: (c) => c.external_id ?? '—' },
              { title: 'Created', cell: (c) => <When at={c.created_at} /> },
              {
                title: 'Actions',
                cell: (c) => (
                  <>
                  <a class="button secondary small" href={href('customers', c.id, 'connect-sessions')} aria-label={`Connect links of ${c.name}`}>
                    Connect links
                  </a>{' '}
                  <button
                    type="button"
                    class="secondary small"
                    disabled={action.busy || !canSupport}
                    aria-label={`Rotate token of ${c.name}`}
                    onClick={async () => {
                      const yes = await confirm({
                        title: `Rotate the enrolment token of ${c.name}?`,
                        message: 'The current token stops enrolling new machines at once; connectors already enrolled keep working.',
                        confirmLabel: 'Rotate token',
                      });
                      if (!yes) return;
                      setRotated(undefined);
                      void action.run(async () => {
                        const answer = await api.post<OperatorCustomerTokenOut>(`/admin/v1/customers/${encodeURIComponent(c.id)}/rotate-token`);
                        setRotated(answer.customer);
                      });
                    }}
                  >
                    Rotate token
                  </button>
                  </>
                ),
              },
            ]}
          />
        )}
      </LoadedView>
    </Panel>
  );
}
