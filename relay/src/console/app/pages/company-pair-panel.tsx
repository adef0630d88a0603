// Pairing a company with one of the companies open in a connector's books. Pairing it again with a
// different books company moves where its writes go, so the console asks first, naming both.
import { useState } from 'preact/hooks';
import type { ConnectorRecordOut, ConsoleCompanyOverviewOut } from '@ledgerwire/shared';
import { ErrorNotice, Notice, Panel, Select, useAction } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { useConfirmDialog } from '../widgets/confirm-dialog.js';

type Props = Readonly<{ company: ConsoleCompanyOverviewOut; connectors: readonly ConnectorRecordOut[]; onPaired: () => void }>;

export function PairPanel({ company, connectors, onPaired }: Props) {
  const api = useApi();
  const usable = connectors.filter((c) => c.open_companies.length > 0);
  const [connectorId, setConnectorId] = useState(company.connector_id ?? usable[0]?.id ?? connectors[0]?.id ?? '');
  const connector = connectors.find((c) => c.id === connectorId);
  const [guid, setGuid] = useState(company.books_company_guid ?? connector?.open_companies[0]?.guid ?? '');
  const action = useAction();
  const [done, setDone] = useState<string | undefined>(undefined);
  const { confirm, dialog } = useConfirmDialog();

  if (connectors.length === 0) {
    return (
      <Panel title="Pairing">
        <Notice>
          No connector of this application is enrolled yet. Give the customer’s token to the end user: once their connector enrols and reports the companies open in
          the books, you can pair this company here.
        </Notice>
      </Panel>
    );
  }
  const books = connector?.open_companies ?? [];
  const chosenGuid = books.some((b) => b.guid === guid) ? guid : (books[0]?.guid ?? '');

  const pair = async () => {
    setDone(undefined);
    const chosen = books.find((b) => b.guid === chosenGuid);
    if (!connector || !chosen) {
      await action.run(() => Promise.reject(new Error('Choose a connector and one of the companies open in its books.')));
      return;
    }
    const moving = company.paired && (company.books_company_guid !== chosen.guid || company.connector_id !== connector.id);
    if (moving) {
      const current = company.books_company_name ?? company.books_company_guid ?? 'its books company';
      const yes = await confirm({
        title: `Pair ${company.name} with ${chosen.name}?`,
        message: (
          <>
            <p>
              Writes for <strong>{company.name}</strong> now go to <strong>{current}</strong>
              {company.connector_machine ? ` on ${company.connector_machine}` : ''}.
            </p>
            <p>
              After this they go to <strong>{chosen.name}</strong> on {connector.machine_name}, including the {company.jobs_queued} still queued.
            </p>
          </>
        ),
        confirmLabel: `Pair with ${chosen.name}`,
        danger: true,
      });
      if (!yes) return;
    }
    await action.run(async () => {
      await api.post(`/admin/v1/companies/${company.company_id}/pair`, { connector_id: connector.id, books_company_guid: chosen.guid, books_company_name: chosen.name });
      setDone(`Paired with ${chosen.name}. Writes for this company now go to that books company.`);
      onPaired();
    });
  };

  return (
    <Panel title="Pairing">
      {dialog}
      <form
        class="form-row"
        aria-label="Pair with the books"
        onSubmit={(event) => {
          event.preventDefault();
          void pair();
        }}
      >
        <Select
          label="Connector"
          value={connectorId}
          onChange={(id) => {
            setConnectorId(id);
            setGuid(connectors.find((c) => c.id === id)?.open_companies[0]?.guid ?? '');
          }}
          options={connectors.map((c) => [c.id, `${c.machine_name} (${c.online ? 'online' : 'offline'})`] as const)}
        />
        {books.length === 0 ? (
          <p class="muted">This connector reports no company open in its books. Ask the user to open the company in the books.</p>
        ) : (
          <Select label="Books company" value={chosenGuid} onChange={setGuid} options={books.map((b) => [b.guid, b.name] as const)} />
        )}
        <button type="submit" disabled={action.busy || books.length === 0}>
          {company.paired ? 'Pair again' : 'Pair company'}
        </button>
      </form>
      {done && <Notice tone="success">{done}</Notice>}
      <ErrorNotice error={action.error} title="The company was not paired." />
    </Panel>
  );
}
