// Help for the shop owner and for support: where TallyPrime is (this computer or another of the office),
// and "Copy diagnostics" — version, settings without secrets, recent errors and TallyPrime's answer, ready to
// paste into an email to support. Where the browser will not copy, the text is shown to select by hand.
import { ErrorNotice, Notice, Panel, TextInput, useAction } from '@ledgerwire/ui-kit';
import { useState } from 'preact/hooks';
import type { ConnectorStatus, LocalApi } from './local-api.js';

export function SupportPanel(props: { api: LocalApi; status: ConnectorStatus; onChanged: () => void }) {
  const [booksUrl, setBooksUrl] = useState('');
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const [manual, setManual] = useState<string | undefined>(undefined);
  const save = useAction();
  const copy = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    setSaved(undefined);
    void save.run(async () => {
      const books = await props.api.setBooksUrl(booksUrl);
      setBooksUrl('');
      setSaved(`The connector now looks for TallyPrime at ${books.url}. ${books.description}`);
      props.onChanged();
    });
  };
  const copyDiagnostics = () => {
    setCopied(undefined);
    setManual(undefined);
    void copy.run(async () => {
      const { text } = await props.api.diagnostics();
      try {
        await navigator.clipboard.writeText(text);
        setCopied('Diagnostics copied. Paste them into your message to support.');
      } catch {
        setManual(text);
      }
    });
  };
  return (
    <Panel title="Support">
      <form class="form-row" id="books-url-form" aria-label="TallyPrime's address" onSubmit={submit}>
        <TextInput
          label="TallyPrime's address"
          hint={`Now ${props.status.books.url}. If TallyPrime runs on another computer of your office, type its address and port, such as 192.168.1.20:9000.`}
          required
          placeholder="192.168.1.20:9000"
          value={booksUrl}
          onInput={setBooksUrl}
        />
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Checking…' : 'Use this address'}
        </button>
      </form>
      {saved && <Notice tone="success">{saved}</Notice>}
      <ErrorNotice error={save.error} title="Address not changed:" />
      <div class="row support-actions">
        <button type="button" class="secondary" id="copy-diagnostics" disabled={copy.busy} onClick={copyDiagnostics}>
          {copy.busy ? 'Gathering…' : 'Copy diagnostics'}
        </button>
        <span class="muted">For support: the version, the settings (no passwords or keys), recent errors and what TallyPrime answers.</span>
      </div>
      {copied && <Notice tone="success">{copied}</Notice>}
      {manual !== undefined && (
        <label class="field">
          <span>Select all of this and copy it (Ctrl+A, then Ctrl+C):</span>
          <textarea id="diagnostics-text" readOnly rows={12} value={manual} onFocus={(event) => event.currentTarget.select()} />
        </label>
      )}
      <ErrorNotice error={copy.error} title="Diagnostics not gathered:" />
    </Panel>
  );
}
