// Support's view of why a tenant's mail does not go out: the suppression list (addresses a provider
// reported as hard-bounced, complained about or unsubscribed; support may clear one when the
// recipient asks for mail again) and the sends the relay refused, with the reason the sender got.
import type { ConsoleRefusedSendsOut, SuppressionListOut } from '@ledgerwire/shared';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { useConfirmDialog } from '../widgets/confirm-dialog.js';
import { ErrorNotice, LoadedView, Panel, Table, When, useAction, useLoad } from '@ledgerwire/ui-kit';

const REASON_WORDS: Readonly<Record<string, string>> = {
  hard_bounce: 'Hard bounce: the mailbox does not exist',
  spam_report: 'The recipient reported a message as spam',
  unsubscribe: 'The recipient unsubscribed',
};

export function SuppressionsPanel({ tenantId }: { tenantId: string }) {
  const canSupport = useCan('support');
  const api = useApi();
  const base = `/admin/v1/tenants/${encodeURIComponent(tenantId)}/suppressions`;
  const list = useLoad(() => api.get<SuppressionListOut>(base), [tenantId]);
  const action = useAction();
  const { confirm, dialog } = useConfirmDialog();
  return (
    <Panel title="Suppressed addresses">
      {dialog}
      <p class="muted">Sends to these addresses are accepted but end failed with reason “suppressed”; no provider is asked to deliver them.</p>
      <ErrorNotice error={action.error} />
      <LoadedView loaded={list} what="the suppression list">
        {(data) => (
          <Table
            caption="Suppressed addresses"
            rows={data.suppressions}
            rowKey={(s) => s.email}
            empty="No address is suppressed: every send reaches a provider."
            columns={[
              { title: 'Address', cell: (s) => <code>{s.email}</code> },
              { title: 'Why', cell: (s) => REASON_WORDS[s.reason] ?? s.reason },
              { title: 'Since', cell: (s) => <When at={s.created_at} /> },
              {
                title: 'Actions',
                cell: (s) => (
                  <button
                    type="button"
                    class="danger small"
                    aria-label={`Remove ${s.email} from the suppression list`}
                    disabled={!canSupport || action.busy}
                    onClick={async () => {
                      const yes = await confirm({
                        title: `Send to ${s.email} again?`,
                        message: 'Only do this when the recipient asked to receive mail again: another bounce or complaint harms the sender’s reputation.',
                        confirmLabel: 'Remove from the list',
                        danger: true,
                      });
                      if (!yes) return;
                      void action.run(async () => {
                        await api.del(`${base}/${encodeURIComponent(s.email)}`);
                        list.reload();
                      });
                    }}
                  >
                    Remove
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

export function RefusedSendsPanel({ tenantId }: { tenantId: string }) {
  const api = useApi();
  const refused = useLoad(() => api.get<ConsoleRefusedSendsOut>(`/admin/v1/console/tenants/${encodeURIComponent(tenantId)}/refused-sends`), [tenantId]);
  return (
    <Panel title="Refused sends (last 7 days)">
      <p class="muted">Sends this relay refused after checking the API key: nothing was stored or sent. The reason is what the sender was told.</p>
      <LoadedView loaded={refused} what="the refused sends">
        {(data) => (
          <Table
            caption="Refused sends"
            rows={data.refused_sends}
            rowKey={(r) => r.id}
            empty="No send was refused in the last 7 days."
            columns={[
              { title: 'When', cell: (r) => <When at={r.refused_at} /> },
              { title: 'Reason', cell: (r) => r.reason },
              { title: 'Template', cell: (r) => (r.event_key ? `${r.event_key} (${r.channel ?? '?'})` : '—') },
              { title: 'Recipient', cell: (r) => r.to ?? '—' },
              { title: 'transaction_id', cell: (r) => (r.transaction_id ? <code>{r.transaction_id}</code> : '—') },
            ]}
          />
        )}
      </LoadedView>
    </Panel>
  );
}
