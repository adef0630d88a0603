// "This computer": the relay link, TallyPrime and the jobs here, each with a badge to read at a glance
// and the connector's sentence beside it.
import { Badge, Panel } from '@ledgerwire/ui-kit';
import type { ComponentChildren } from 'preact';
import type { ConnectorStatus } from './local-api.js';

type Tone = 'good' | 'bad' | 'warn' | 'neutral';

const RELAY_BADGES: Readonly<Record<ConnectorStatus['relay']['state'], readonly [Tone, string]>> = {
  not_enrolled: ['neutral', 'Not set up'],
  online: ['good', 'Connected'],
  connecting: ['warn', 'Connecting'],
  offline: ['bad', 'Offline'],
  stopped: ['bad', 'Stopped'],
};

function booksBadge(books: ConnectorStatus['books']): readonly [Tone, string] {
  if (books.running === null) return ['neutral', 'Checking'];
  if (!books.running) return ['bad', 'Not running'];
  return books.description.includes('jobs are waiting') || books.description.includes(', but ') ? ['warn', 'Needs attention'] : ['good', 'Running'];
}

function queueBadge(queue: ConnectorStatus['queue']): readonly [Tone, string] {
  if (queue.waiting + queue.importing === 0) return queue.unreported > 0 ? ['warn', 'Results to send'] : ['good', 'Nothing waiting'];
  return queue.importing > 0 ? ['warn', 'Importing'] : ['warn', `${queue.waiting} waiting`];
}

function Row(props: { term: string; id: string; tone: readonly [Tone, string]; state?: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{props.term}</dt>
      <dd>
        <Badge tone={props.tone[0]}>{props.tone[1]}</Badge> <span id={props.id} data-state={props.state ?? ''}>{props.children}</span>
      </dd>
    </>
  );
}

export function OverviewPanel(props: { status: ConnectorStatus }) {
  const { relay, books, queue } = props.status;
  return (
    <Panel title="This computer">
      <dl class="facts overview">
        <Row term="Relay" id="relay-state" state={relay.state} tone={RELAY_BADGES[relay.state]}>
          {relay.description}
        </Row>
        <Row term="TallyPrime" id="books-state" state={books.running === null ? '' : books.running ? 'running' : 'stopped'} tone={booksBadge(books)}>
          {books.description}
        </Row>
        <Row term="Jobs" id="queue-state" tone={queueBadge(queue)}>
          {queue.description}
        </Row>
      </dl>
    </Panel>
  );
}
