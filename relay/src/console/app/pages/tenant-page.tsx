// One tenant: status (suspend / reactivate), limits, API keys (a new key is shown once; revoke) and
// templates, suppressed addresses and refused sends, with links to its messages and webhooks.
import { useState } from 'preact/hooks';
import type { TenantEnvelopeOut, TenantLimitsOut, TenantOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { href } from '../router.js';
import { Badge, ErrorNotice, LoadedView, Page, Panel, StatusBadge, TextInput, useAction, useLoad } from '@ledgerwire/ui-kit';
import { RefusedSendsPanel, SuppressionsPanel } from './tenant-deliverability-panels.js';
import { TenantKeysPanel } from './tenant-keys-panel.js';
import { TemplatesPanel } from './templates-panel.js';

type TenantEnvelope = z.infer<typeof TenantEnvelopeOut>;

export function TenantPage({ tenantId }: { tenantId: string }) {
  const api = useApi();
  const tenant = useLoad(() => api.get<TenantEnvelope>(`/admin/v1/tenants/${encodeURIComponent(tenantId)}`), [tenantId]);
  return (
    <LoadedView loaded={tenant} what="the tenant">
      {({ tenant: t }) => (
        <Page
          title={t.name}
          intro={`Tenant ${t.id} · org id ${t.org_id}`}
          actions={
            <>
              <a class="button secondary" href={href('tenants', t.id, 'messages')}>
                Messages
              </a>
              <a class="button secondary" href={href('tenants', t.id, 'webhooks')}>
                Webhooks
              </a>
            </>
          }
        >
          <StatusPanel tenant={t} onChanged={tenant.reload} />
          <LimitsPanel tenant={t} onChanged={tenant.reload} />
          <TenantKeysPanel tenantId={t.id} />
          <TemplatesPanel tenantId={t.id} />
          <SuppressionsPanel tenantId={t.id} />
          <RefusedSendsPanel tenantId={t.id} />
        </Page>
      )}
    </LoadedView>
  );
}

function StatusPanel({ tenant, onChanged }: { tenant: TenantOut; onChanged: () => void }) {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const action = useAction();
  const next = tenant.status === 'active' ? 'suspended' : 'active';
  return (
    <Panel title="Status">
      <p>
        This tenant is <StatusBadge status={tenant.status} />.{' '}
        {tenant.status === 'active'
          ? 'Its API keys can send messages.'
          : 'Every send with its API keys is refused with 403 “Tenant inactive” until it is reactivated.'}
      </p>
      <button
        type="button"
        class={next === 'suspended' ? 'danger' : ''}
        disabled={action.busy || !canAdmin}
        onClick={() =>
          void action.run(async () => {
            await api.patch(`/admin/v1/tenants/${encodeURIComponent(tenant.id)}`, { status: next });
            onChanged();
          })
        }
      >
        {next === 'suspended' ? 'Suspend tenant' : 'Reactivate tenant'}
      </button>
      <ErrorNotice error={action.error} title="The status was not changed." />
    </Panel>
  );
}

const LIMIT_FIELDS: readonly (readonly [keyof TenantLimitsOut, string, string])[] = [
  ['burst_per_minute', 'Burst per minute', 'Every authenticated request'],
  ['sustained_per_minute', 'Messages per minute', 'Accepted messages'],
  ['daily_quota', 'Messages per day', 'Accepted messages per UTC day'],
  ['events_per_minute', 'Events per minute', 'Business events ingested'],
  ['webhooks_per_minute', 'Webhooks per minute', 'Provider delivery-event batches'],
];

function LimitsPanel({ tenant, onChanged }: { tenant: TenantOut; onChanged: () => void }) {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const action = useAction();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(LIMIT_FIELDS.map(([key]) => [key, String(tenant.limits[key])])),
  );
  const [saved, setSaved] = useState(false);
  return (
    <Panel title="Limits">
      <form
        class="form-grid"
        onSubmit={(event) => {
          event.preventDefault();
          setSaved(false);
          void action.run(async () => {
            const limits: Record<string, number> = {};
            for (const [key, label] of LIMIT_FIELDS) {
              const text = (values[key] ?? '').trim();
              if (!/^\d+$/.test(text)) throw new Error(`${label} must be a whole number.`);
              limits[key] = Number(text);
            }
            await api.patch(`/admin/v1/tenants/${encodeURIComponent(tenant.id)}`, { limits });
            setSaved(true);
            onChanged();
          });
        }}
      >
        {LIMIT_FIELDS.map(([key, label, hint]) => (
          <TextInput key={key} label={label} hint={hint} inputMode="numeric" value={values[key] ?? ''} onInput={(v) => setValues({ ...values, [key]: v })} />
        ))}
        <div class="form-actions">
          <button type="submit" disabled={action.busy || !canAdmin}>
            Save limits
          </button>
          {saved && <Badge tone="good">Saved</Badge>}
        </div>
      </form>
      <ErrorNotice error={action.error} title="The limits were not saved." />
    </Panel>
  );
}
