// One webhook delivery as Svix's dashboard shows a message attempt: the request (headers the relay
// signs with, and the JSON payload — the same bytes on every attempt) and, for each attempt, the
// receiver's answer: status, how long it took, and the start of its body. Each failure is said once:
// an HTTP status speaks for itself; the error text is shown only when there was no answer at all.
import type { WebhookDeliveryDetailOut } from '@ledgerwire/shared';
import { Badge, LoadedView, StatusBadge, When, useLoad } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';

type Detail = WebhookDeliveryDetailOut['delivery'];
type Attempt = Detail['attempts'][number];

/** JSON indented for reading; anything else as it came. */
export function readableBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function DeliveryDetail({ deliveryId, onClose }: { deliveryId: string; onClose: () => void }) {
  const api = useApi();
  const loaded = useLoad(() => api.get<WebhookDeliveryDetailOut>(`/admin/v1/webhook-deliveries/${encodeURIComponent(deliveryId)}`), [deliveryId]);
  return (
    <section class="delivery-detail" aria-label={`Delivery ${deliveryId}`}>
      <header class="panel-header">
        <h3>
          Delivery <code>{deliveryId}</code>
        </h3>
        <button type="button" class="secondary small" onClick={onClose}>
          Close
        </button>
      </header>
      <LoadedView loaded={loaded} what="the delivery">
        {({ delivery }) => (
          <div class="stack">
            <dl class="facts">
              <dt>Event</dt>
              <dd>
                {delivery.event_type} <code class="muted">{delivery.event_id}</code>
              </dd>
              <dt>Status</dt>
              <dd>
                <StatusBadge status={delivery.status} />
                {delivery.next_attempt_at && (
                  <span class="muted">
                    {' '}
                    · next attempt <When at={delivery.next_attempt_at} />
                  </span>
                )}
              </dd>
              <dt>Endpoint</dt>
              <dd class="webhook-url">{delivery.endpoint_url}</dd>
            </dl>
            <div>
              <h4>Request</h4>
              <p class="muted">
                POST with <code>webhook-id: {delivery.event_id}</code>, <code>X-Service-Delivery: {delivery.id}</code>, a <code>webhook-timestamp</code> and its{' '}
                <code>webhook-signature</code>.
              </p>
              <pre class="code" tabIndex={0} aria-label="Request payload">
                {readableBody(delivery.payload)}
              </pre>
            </div>
            <div>
              <h4>Attempts</h4>
              {delivery.attempts.length === 0 ? (
                <p class="empty">Not attempted yet.</p>
              ) : (
                <ol class="attempt-list" aria-label={`Attempts of ${delivery.id}`}>
                  {delivery.attempts.map((attempt, index) => (
                    <AttemptItem key={index} attempt={attempt} number={index + 1} />
                  ))}
                </ol>
              )}
            </div>
          </div>
        )}
      </LoadedView>
    </section>
  );
}

function AttemptItem({ attempt, number }: { attempt: Attempt; number: number }) {
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <li class="attempt" aria-label={`Attempt ${number}`}>
      <p>
        <Badge tone={ok ? 'good' : 'bad'}>{attempt.status_code === null ? 'no answer' : `HTTP ${attempt.status_code}`}</Badge> in {attempt.duration_ms} ms ·{' '}
        <When at={attempt.attempted_at} />
        {attempt.status_code === null && attempt.error && <span> · {attempt.error}</span>}
      </p>
      {attempt.response_body !== null ? (
        <pre class="code response-body" tabIndex={0} aria-label={`Response body of attempt ${number}`}>
          {readableBody(attempt.response_body)}
        </pre>
      ) : (
        attempt.status_code !== null && <p class="muted">The receiver sent no body.</p>
      )}
    </li>
  );
}
