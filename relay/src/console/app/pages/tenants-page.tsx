// Messaging tenants: the list with status and limits, and a form to add one.
import { useState } from 'preact/hooks';
import type { TenantEnvelopeOut, TenantListOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { href, navigate } from '../router.js';
import { ErrorNotice, LoadedView, Page, Panel, StatusBadge, Table, TextInput, useAction, useLoad } from '@ledgerwire/ui-kit';

type TenantList = z.infer<typeof TenantListOut>;
type TenantEnvelope = z.infer<typeof TenantEnvelopeOut>;

export function TenantsPage() {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const tenants = useLoad(() => api.get<TenantList>('/admin/v1/tenants'), []);
  return (
    <Page title="Tenants" intro="Each tenant is one sender of messages, with its own API keys, templates and limits.">
      {canAdmin && <NewTenantForm onCreated={(id) => navigate(href('tenants', id))} />}
      <Panel title="All tenants">
        <LoadedView loaded={tenants} what="the tenants">
          {(data) => (
            <Table
              caption="Tenants"
              rows={data.tenants}
              rowKey={(t) => t.id}
              empty="No tenants yet. Create the first one above; it gets its API keys and templates on its own page."
              columns={[
                { title: 'Name', cell: (t) => <a href={href('tenants', t.id)}>{t.name}</a> },
                { title: 'Org id', cell: (t) => t.org_id },
                { title: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
                {
                  title: 'Limits',
                  cell: (t) => `${t.limits.sustained_per_minute}/min · ${t.limits.daily_quota}/day · burst ${t.limits.burst_per_minute}/min`,
                },
                { title: 'Providers', cell: (t) => t.provider_order.join(' → ') },
              ]}
            />
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}

function NewTenantForm({ onCreated }: { onCreated: (id: string) => void }) {
  const api = useApi();
  const [name, setName] = useState('');
  const [orgId, setOrgId] = useState('');
  const action = useAction();
  return (
    <Panel title="New tenant">
      <form
        class="form-row"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            if (!/^\d+$/.test(orgId.trim())) throw new Error('The organisation id must be a whole number (the org_id your business events carry).');
            const created = await api.post<TenantEnvelope>('/admin/v1/tenants', { name, org_id: Number(orgId.trim()) });
            onCreated(created.tenant.id);
          });
        }}
      >
        <TextInput label="Tenant name" value={name} onInput={setName} required maxLength={200} />
        <TextInput label="Organisation id" value={orgId} onInput={setOrgId} inputMode="numeric" hint="The org_id of this tenant’s business events" required />
        <button type="submit" disabled={action.busy}>
          Create tenant
        </button>
      </form>
      <ErrorNotice error={action.error} title="The tenant was not created." />
    </Panel>
  );
}
