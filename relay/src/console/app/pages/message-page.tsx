// One message: where it stands, which provider took it, and its timeline event by event.
import type { ConsoleMessageDetailOut, MessageOut } from '@ledgerwire/shared';
import { useApi } from '../api-context.js';
import { href } from '../router.js';
import { LoadedView, Notice, Page, Panel, StatusBadge, When, useLoad } from '@ledgerwire/ui-kit';

const ENTRY_WORDS: Record<string, string> = {
  queued: 'Accepted and queued for delivery',
  sent: 'Handed to the provider',
  attempt_failed: 'A provider could not take the message',
  provider_skipped: 'A provider was skipped (it is failing and paused for now)',
  retry_scheduled: 'Delivery will be tried again later',
  provider_event: 'The provider reported a delivery event',
  status_ignored: 'A late provider event arrived; the status did not move backwards',
  failed: 'Delivery failed for good',
};

export function MessagePage({ tenantId, messageId }: { tenantId: string; messageId: string }) {
  const api = useApi();
  const loaded = useLoad(
    () => api.get<ConsoleMessageDetailOut>(`/admin/v1/console/tenants/${encodeURIComponent(tenantId)}/messages/${encodeURIComponent(messageId)}`),
    [tenantId, messageId],
  );
  return (
    <LoadedView loaded={loaded} what="the message">
      {({ message }) => (
        <Page
          title={message.subject}
          intro={`${message.message_id} · to ${message.to}`}
          actions={
            <a class="button secondary" href={href('tenants', tenantId, 'messages')}>
              Back to messages
            </a>
          }
        >
          <Summary message={message} />
          <Panel title="Timeline">
            {message.timeline.length === 0 ? (
              <p class="empty">Nothing has happened to this message yet.</p>
            ) : (
              <ol class="timeline" aria-label="Message timeline">
                {message.timeline.map((entry, index) => (
                  <li key={index}>
                    <When at={entry.occurred_at} /> — <strong>{ENTRY_WORDS[entry.type] ?? entry.type}</strong>
                    {entry.status && (
                      <>
                        {' '}
                        <StatusBadge status={entry.status} />
                      </>
                    )}
                    {entry.provider && <span class="muted"> via {entry.provider}</span>}
                    {entry.detail && <pre class="detail">{JSON.stringify(entry.detail, null, 2)}</pre>}
                  </li>
                ))}
              </ol>
            )}
          </Panel>
        </Page>
      )}
    </LoadedView>
  );
}

function Summary({ message }: { message: MessageOut }) {
  return (
    <Panel title="Summary">
      {message.error && (
        <Notice tone="warning" label="Delivery error">
          The provider refused this message: {message.error}
        </Notice>
      )}
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={message.status} />
        </dd>
        <dt>Provider</dt>
        <dd>{message.provider ?? 'not sent yet'}</dd>
        <dt>Attempts</dt>
        <dd>{message.attempts}</dd>
        <dt>Template</dt>
        <dd>
          {message.event_key}
          {message.template_fallback ? ' (test_email fallback)' : ''}
        </dd>
        <dt>Transaction id</dt>
        <dd>
          <code>{message.transaction_id}</code> ({message.action})
        </dd>
        <dt>Queued</dt>
        <dd>
          <When at={message.timestamps.queued_at} />
        </dd>
        <dt>Sent</dt>
        <dd>
          <When at={message.timestamps.sent_at} />
        </dd>
        <dt>Delivered</dt>
        <dd>
          <When at={message.timestamps.delivered_at} />
        </dd>
      </dl>
    </Panel>
  );
}
