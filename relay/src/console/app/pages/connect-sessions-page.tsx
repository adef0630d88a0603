// A customer's connect links (connect sessions), for support on the phone with a shop owner: where each
// link got to (status), for which company, until when it works, and when it was made; a link still
// open can be cancelled, which stops its page and setup code at once (audited as connect_session.cancel).
import type { ConnectSessionListOut, ConnectSessionOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { href } from '../router.js';
import { ErrorNotice, LoadedView, Page, Panel, StatusBadge, Table, When, useAction, useLoad } from '@ledgerwire/ui-kit';
import { useConfirmDialog } from '../widgets/confirm-dialog.js';

type SessionList = z.infer<typeof ConnectSessionListOut>;

/** Statuses in which the link still works, so cancelling it means something. */
const OPEN_STATUSES: ReadonlySet<ConnectSessionOut['status']> = new Set(['pending', 'connector_enrolled', 'books_found']);

export function ConnectSessionsPage({ customerId }: { customerId: string }) {
  const api = useApi();
  const canSupport = useCan('support');
  const sessions = useLoad(() => api.get<SessionList>(`/admin/v1/customers/${encodeURIComponent(customerId)}/connect-sessions`), [customerId]);
  const action = useAction();
  const { confirm, dialog } = useConfirmDialog();
  return (
    <Page title="Connect links" intro={`Customer ${customerId}: the links their application made to connect TallyPrime, newest first.`}>
      {dialog}
      <ErrorNotice error={action.error} title="The link was not cancelled." />
      <Panel title="Connect sessions">
        <LoadedView loaded={sessions} what="the connect links">
          {(data) => (
            <Table
              caption="Connect sessions"
              rows={data.connect_sessions}
              rowKey={(s) => s.id}
              empty="No connect links yet. The application makes them with POST /api/v1/connect-sessions."
              columns={[
                { title: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
                { title: 'Company', cell: (s) => <a href={href('companies', s.company_id)}>{s.company_name || `Company ${s.company_id}`}</a> },
                { title: 'Expires', cell: (s) => <When at={s.expires_at} /> },
                { title: 'Created', cell: (s) => <When at={s.created_at} /> },
                { title: 'Session id', cell: (s) => <code>{s.id}</code> },
                {
                  title: 'Actions',
                  cell: (s) =>
                    OPEN_STATUSES.has(s.status) ? (
                      <button
                        type="button"
                        class="secondary small"
                        disabled={action.busy || !canSupport}
                        aria-label={`Cancel the connect link for ${s.company_name}`}
                        onClick={async () => {
                          const yes = await confirm({
                            title: `Cancel the connect link for ${s.company_name}?`,
                            message: 'Its page and setup code stop working at once; the application can make a new link. A connector already enrolled with it stays enrolled.',
                            confirmLabel: 'Yes, cancel the link',
                            danger: true,
                          });
                          if (!yes) return;
                          void action.run(async () => {
                            await api.post(`/admin/v1/connect-sessions/${encodeURIComponent(s.id)}/cancel`);
                            sessions.reload();
                          });
                        }}
                      >
                        Cancel link
                      </button>
                    ) : (
                      <span class="muted">—</span>
                    ),
                },
              ]}
            />
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}
