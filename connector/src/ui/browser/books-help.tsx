// What to do in TallyPrime when the connector cannot reach it, step by step in TallyPrime's own menu
// words: open it and load the company, or turn its XML port on. Tally's help names the screen
// Exchange > Data Synchronization; practitioners reach the same settings through F1 (Help) > Settings >
// Connectivity in some releases, so both are given (evidence: emulator/evidence/exports-and-failures.md).
import { Panel } from '@ledgerwire/ui-kit';
import type { ConnectorStatus } from './local-api.js';

const TALLY_HELP = 'https://help.tallysolutions.com/integration-with-tallyprime/';

function portOf(url: string): string {
  try {
    return new URL(url).port || '9000';
  } catch {
    return '9000';
  }
}

function OpenTallySteps() {
  return (
    <ol>
      <li>Open TallyPrime on this computer.</li>
      <li>
        Load your company: <strong>Company &gt; Select</strong>, then choose it.
      </li>
    </ol>
  );
}

function XmlPortSteps(props: { port: string }) {
  return (
    <>
      <ol>
        <li>
          In TallyPrime, go to <strong>Exchange &gt; Data Synchronization</strong> (in some releases: press <strong>F1 (Help) &gt; Settings &gt; Connectivity</strong>,
          then <strong>Client/Server configuration</strong>).
        </li>
        <li>
          Set <strong>TallyPrime acting as</strong> to <strong>Both</strong>, and <strong>Port</strong> to <strong>{props.port}</strong>. Save with <strong>Ctrl+A</strong>.
        </li>
        <li>Keep your company loaded. If the connector still cannot reach TallyPrime after a minute, close TallyPrime and open it again.</li>
      </ol>
      <p class="muted">
        Tally's own help on this:{' '}
        <a href={TALLY_HELP} target="_blank" rel="noopener noreferrer">
          Integration with TallyPrime
        </a>
        .
      </p>
    </>
  );
}

export function BooksHelp(props: { books: ConnectorStatus['books'] }) {
  const { attention, url } = props.books;
  if (attention === null) return null;
  const port = portOf(url);
  return (
    <Panel title="What to do in TallyPrime">
      <div id="books-help" data-attention={attention}>
        {attention === 'tally_closed' && <OpenTallySteps />}
        {attention === 'xml_port_off' && <XmlPortSteps port={port} />}
        {attention === 'not_answering' && (
          <>
            <p>If TallyPrime is closed:</p>
            <OpenTallySteps />
            <p>If it is open, turn on its XML port, which lets the connector talk to it:</p>
            <XmlPortSteps port={port} />
          </>
        )}
        {attention === 'other_computer' && (
          <>
            <p>On the computer TallyPrime runs on ({url}):</p>
            <OpenTallySteps />
            <p>Then turn on its XML port, which lets the connector talk to it:</p>
            <XmlPortSteps port={port} />
            <p>
              Both computers must be on the same network. If Windows Firewall asks there, allow TallyPrime. If TallyPrime is on this computer after all, set its address
              back to 127.0.0.1:9000 under Support below.
            </p>
          </>
        )}
        {attention === 'no_company_open' && (
          <ol>
            <li>
              In TallyPrime, load your company: <strong>Company &gt; Select</strong>, then choose it.
            </li>
          </ol>
        )}
      </div>
    </Panel>
  );
}
