// A tenant's messages, searched by status or recipient (newest first); each opens its timeline.
import { useState } from 'preact/hooks';
import type { ConsoleMessageSearchOut } from '@ledgerwire/shared';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { href, navigate, type Route } from '../router.js';
import { LoadedView, Page, Panel, Select, StatusBadge, Table, TextInput, When, useLoad } from '@ledgerwire/ui-kit';

const STATUS_OPTIONS = [['', 'Any status'], ...['queued', 'sent', 'delivered', 'opened', 'clicked', 'bounced', 'failed'].map((s) => [s, s] as const)] as const;
const PAGE_SIZE = 50;

export function MessagesPage({ tenantId, route }: { tenantId: string; route: Route }) {
  const api = useApi();
  const status = route.query.get('status') ?? '';
  const recipient = route.query.get('recipient') ?? '';
  const offset = Number(route.query.get('offset') ?? '0') || 0;
  const [draftStatus, setDraftStatus] = useState(status);
  const [draftRecipient, setDraftRecipient] = useState(recipient);
  const results = useLoad(
    () =>
      api.get<ConsoleMessageSearchOut>(
        withQuery(`/admin/v1/console/tenants/${encodeURIComponent(tenantId)}/messages`, { status, recipient, limit: PAGE_SIZE, offset }),
      ),
    [tenantId, status, recipient, offset, route.visit],
  );
  const searchHref = (next: { status: string; recipient: string; offset: number }) =>
    withQuery(href('tenants', tenantId, 'messages'), { status: next.status, recipient: next.recipient, offset: next.offset || undefined });
  const filtered = status !== '' || recipient !== '';

  return (
    <Page
      title="Messages"
      intro="Search this tenant’s messages by delivery status or recipient. Open one to see its timeline."
      actions={
        <a class="button secondary" href={href('tenants', tenantId)}>
          Back to tenant
        </a>
      }
    >
      <Panel title="Search">
        <form
          class="form-row"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            navigate(searchHref({ status: draftStatus, recipient: draftRecipient.trim(), offset: 0 }));
          }}
        >
          <Select label="Status" value={draftStatus} onChange={setDraftStatus} options={STATUS_OPTIONS} />
          <TextInput label="Recipient" type="search" value={draftRecipient} onInput={setDraftRecipient} placeholder="name@example.com, or part of it" />
          <button type="submit">Search</button>
        </form>
      </Panel>
      <Panel title="Results">
        <LoadedView loaded={results} what="the messages">
          {(data) => (
            <>
              <p class="muted" role="status">
                {data.total === 0 ? '' : `${data.total} message${data.total === 1 ? '' : 's'}${filtered ? ' match' : ''}.`}
              </p>
              <Table
                caption="Messages"
                rows={data.messages}
                rowKey={(m) => m.message_id}
                empty={filtered ? 'No message matches this search. Try another status, or part of the address.' : 'This tenant has sent no messages yet.'}
                columns={[
                  { title: 'Recipient', cell: (m) => <a href={href('tenants', tenantId, 'messages', m.message_id)}>{m.to}</a> },
                  { title: 'Subject', cell: (m) => m.subject },
                  { title: 'Status', cell: (m) => <StatusBadge status={m.status} /> },
                  { title: 'Template', cell: (m) => m.event_key },
                  { title: 'Provider', cell: (m) => m.provider ?? '—' },
                  { title: 'Created', cell: (m) => <When at={m.created_at} /> },
                ]}
              />
              <div class="pager">
                {offset > 0 && <a href={searchHref({ status, recipient, offset: Math.max(0, offset - PAGE_SIZE) })}>Newer</a>}
                {offset + PAGE_SIZE < data.total && <a href={searchHref({ status, recipient, offset: offset + PAGE_SIZE })}>Older</a>}
              </div>
            </>
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}
