// A tenant's API keys: issue one (the whole key is shown once, here), list them by prefix, revoke.
import { useState } from 'preact/hooks';
import type { TenantApiKeyCreatedOut, TenantApiKeyListOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { useConfirmDialog } from '../widgets/confirm-dialog.js';
import { ErrorNotice, LoadedView, OneTimeSecret, Panel, StatusBadge, Table, When, useAction, useLoad } from '@ledgerwire/ui-kit';

type KeyList = z.infer<typeof TenantApiKeyListOut>;
type KeyCreated = z.infer<typeof TenantApiKeyCreatedOut>;

export function TenantKeysPanel({ tenantId }: { tenantId: string }) {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const base = `/admin/v1/tenants/${encodeURIComponent(tenantId)}/api-keys`;
  const keys = useLoad(() => api.get<KeyList>(base), [tenantId]);
  const [issued, setIssued] = useState<KeyCreated | undefined>(undefined);
  const action = useAction();
  const { confirm, dialog } = useConfirmDialog();
  return (
    <Panel
      title="API keys"
      actions={
        <button
          type="button"
          disabled={action.busy || !canAdmin}
          onClick={() =>
            void action.run(async () => {
              setIssued(await api.post<KeyCreated>(base));
              keys.reload();
            })
          }
        >
          Issue API key
        </button>
      }
    >
      {dialog}
      {issued && <OneTimeSecret label="New API key" value={issued.api_key} onDismiss={() => setIssued(undefined)} />}
      <ErrorNotice error={action.error} />
      <LoadedView loaded={keys} what="the API keys">
        {(data) => (
          <Table
            caption="API keys"
            rows={data.api_keys}
            rowKey={(k) => k.prefix}
            empty="This tenant has no API keys yet. Issue one to start sending."
            columns={[
              { title: 'Prefix', cell: (k) => <code>{k.prefix}</code> },
              { title: 'Mode', cell: (k) => (k.mode === 'test' ? 'Test (outbox only)' : 'Live') },
              { title: 'Created', cell: (k) => <When at={k.created_at} /> },
              { title: 'State', cell: (k) => <StatusBadge status={k.revoked_at ? 'revoked' : 'active'} /> },
              {
                title: 'Actions',
                cell: (k) =>
                  k.revoked_at ? (
                    <span class="muted">
                      Revoked <When at={k.revoked_at} />
                    </span>
                  ) : (
                    <button
                      type="button"
                      class="danger small"
                      aria-label={`Revoke key ${k.prefix}`}
                      disabled={!canAdmin}
                      onClick={async () => {
                        const yes = await confirm({ title: `Revoke key ${k.prefix}?`, message: 'Requests with it are refused at once. This cannot be undone.', confirmLabel: 'Revoke key', danger: true });
                        if (!yes) return;
                        void action.run(async () => {
                          await api.del(`${base}/${encodeURIComponent(k.prefix)}`);
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
