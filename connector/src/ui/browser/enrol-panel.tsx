// Connects this computer to the customer's account with the token they were given (it is sent once to
// the relay and not kept here). Once connected the panel goes; the page says whom it connected as.
import { ErrorNotice, Panel, TextInput, useAction } from '@ledgerwire/ui-kit';
import { useState } from 'preact/hooks';
import type { LocalApi } from './local-api.js';

export function EnrolPanel(props: { api: LocalApi; onEnrolled: (connectorId: string) => void }) {
  const [relayUrl, setRelayUrl] = useState('');
  const [token, setToken] = useState('');
  const [machineName, setMachineName] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const result = await props.api.enrol({ relay_url: relayUrl, token, machine_name: machineName });
      setToken('');
      props.onEnrolled(result.connectorId);
    });
  };
  return (
    <Panel title="Connect this computer">
      <p class="intro">Paste the customer token you were given. It connects this computer to your account; it is not stored.</p>
      <form class="form-grid" onSubmit={submit} aria-label="Connect this computer">
        <TextInput label="Relay address" type="url" required placeholder="https://relay.example.com" value={relayUrl} onInput={setRelayUrl} />
        <TextInput label="Customer token" type="password" required autoComplete="off" value={token} onInput={setToken} />
        <TextInput label="Name of this computer" placeholder="this computer's name if left empty" value={machineName} onInput={setMachineName} />
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
