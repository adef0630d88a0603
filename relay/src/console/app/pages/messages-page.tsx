// A tenant's messages, searched by status, recipient, tag or metadata (newest first); each opens its timeline.
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
  const tag = route.query.get('tag') ?? '';
  const metadata = route.query.get('metadata') ?? '';
  const offset = Number(route.query.get('offset') ?? '0') || 0;
  const [draftStatus, setDraftStatus] = useState(status);
  const [draftRecipient, setDraftRecipient] = useState(recipient);
  const [draftTag, setDraftTag] = useState(tag);
  const [draftMetadata, setDraftMetadata] = useState(metadata);
  const results = useLoad(
    () =>
      api.get<ConsoleMessageSearchOut>(
        withQuery(`/admin/v1/console/tenants/${encodeURIComponent(tenantId)}/messages`, { status, recipient, tag, metadata, limit: PAGE_SIZE, offset }),
      ),
    [tenantId, status, recipient, tag, metadata, offset, route.visit],
  );
  const searchHref = (next: { offset: number; status?: string; recipient?: string; tag?: string; metadata?: string }) =>
    withQuery(href('tenants', tenantId, 'messages'), {
      status: next.status ?? status,
      recipient: next.recipient ?? recipient,
      tag: (next.tag ?? tag) || undefined,
      metadata: (next.metadata ?? metadata) || undefined,
      offset: next.offset || undefined,
    });
  const filtered = status !== '' || recipient !== '' || tag !== '' || metadata !== '';

  return (
    <Page
      title="Messages"
      intro="Search this tenant’s messages by delivery status, recipient, tag or metadata (an invoice or customer id the sender attached). Open one to see its timeline."
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
            navigate(searchHref({ status: draftStatus, recipient: draftRecipient.trim(), tag: draftTag.trim(), metadata: draftMetadata.trim(), offset: 0 }));
          }}
        >
          <Select label="Status" value={draftStatus} onChange={setDraftStatus} options={STATUS_OPTIONS} />
          <TextInput label="Recipient" type="search" value={draftRecipient} onInput={setDraftRecipient} placeholder="name@example.com, or part of it" />
          <TextInput label="Tag" type="search" value={draftTag} onInput={setDraftTag} placeholder="invoice" />
          <TextInput label="Metadata" type="search" value={draftMetadata} onInput={setDraftMetadata} placeholder="INV-1042, or part of it" />
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
                empty={filtered ? 'No message matches this search. Try another status, tag, or part of the address or metadata.' : 'This tenant has sent no messages yet.'}
                columns={[
                  { title: 'Recipient', cell: (m) => <a href={href('tenants', tenantId, 'messages', m.message_id)}>{m.to}</a> },
                  { title: 'Subject', cell: (m) => m.subject },
                  { title: 'Status', cell: (m) => <StatusBadge status={m.status} /> },
                  { title: 'Template', cell: (m) => m.event_key },
                  { title: 'Tags', cell: (m) => (m.tags.length === 0 ? '—' : m.tags.join(', ')) },
                  { title: 'Provider', cell: (m) => m.provider ?? '—' },
                  { title: 'Created', cell: (m) => <When at={m.created_at} /> },
                ]}
              />
              <div class="pager">
                {offset > 0 && <a href={searchHref({ offset: Math.max(0, offset - PAGE_SIZE) })}>Newer</a>}
                {offset + PAGE_SIZE < data.total && <a href={searchHref({ offset: offset + PAGE_SIZE })}>Older</a>}
              </div>
            </>
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}
