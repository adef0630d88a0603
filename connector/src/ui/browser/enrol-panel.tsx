// The first thing a new connector's page shows: one field for what the software provider gave the shop
// owner (a setup code or a customer token; it is sent once to the relay and not kept here). The relay's
// address usually came with the installer; when it did not, the form asks for it too. The computer's name
// and TallyPrime's address, for a TallyPrime on another computer of the office, wait under "More".
import { ErrorNotice, Panel, TextInput, useAction } from '@ledgerwire/ui-kit';
import { useState } from 'preact/hooks';
import type { ConnectorStatus, LocalApi } from './local-api.js';

export function EnrolPanel(props: { api: LocalApi; status: ConnectorStatus; onEnrolled: (connectorId: string) => void }) {
  const knownRelay = props.status.relay.url;
  const [relayUrl, setRelayUrl] = useState('');
  const [changeRelay, setChangeRelay] = useState(false);
  const [code, setCode] = useState('');
  const [machineName, setMachineName] = useState('');
  const [booksUrl, setBooksUrl] = useState('');
  const action = useAction();
  const askRelay = knownRelay === null || changeRelay;
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const result = await props.api.enrol({
        code,
        ...(askRelay ? { relay_url: relayUrl } : {}),
        ...(machineName.trim() ? { machine_name: machineName } : {}),
        ...(booksUrl.trim() ? { books_url: booksUrl } : {}),
      });
      setCode('');
      props.onEnrolled(result.connectorId);
    });
  };
  return (
    <Panel title="Connect this computer">
      <p class="intro">
        Type in the code your software provider gave you (it may be a short code like <code>K7QP-M3XD</code> or a long one starting <code>lwct_</code>). It
        connects this computer to your account; it is used once and not kept here.
      </p>
      <form class="form-grid" onSubmit={submit} aria-label="Connect this computer" id="enrol-form">
        <TextInput label="Code from your software provider" required autoComplete="off" spellcheck={false} autoCapitalize="characters" value={code} onInput={setCode} />
        {askRelay ? (
          <TextInput label="Relay address (from your software provider)" type="url" required placeholder="https://relay.example.com" value={relayUrl} onInput={setRelayUrl} />
        ) : (
          <p class="muted" id="relay-known">
            Connects to {knownRelay}.{' '}
            <button type="button" class="link" onClick={() => setChangeRelay(true)}>
              Change
            </button>
          </p>
        )}
        <details class="more-settings">
          <summary>More: this computer's name, TallyPrime on another computer</summary>
          <TextInput label="Name of this computer" placeholder="this computer's name if left empty" value={machineName} onInput={setMachineName} />
          <TextInput
            label="TallyPrime's address"
            hint={`Only when TallyPrime runs on another computer of your office: its address and port, such as 192.168.1.20:9000. Now: ${props.status.books.url}`}
            placeholder="127.0.0.1:9000"
            value={booksUrl}
            onInput={setBooksUrl}
          />
        </details>
        <div class="form-actions">
          <button type="submit" disabled={action.busy}>
            {action.busy ? 'Connecting…' : 'Connect'}
          </button>
        </div>
      </form>
      <ErrorNotice error={action.error} title="Not connected:" />
    </Panel>
  );
}
