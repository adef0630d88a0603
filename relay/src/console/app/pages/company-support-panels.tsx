// Support's tasks on one company besides pairing: attach it to one of its application's customers or
// detach it (the integrator's webhooks hear company.linked / company.unlinked), and disconnect it from
// its connector (after a confirmation) so writes wait in the queue until it is paired again.
import { useState } from 'preact/hooks';
import type { OperatorCompanyOut, OperatorCompanyRecordOut, OperatorCustomerListOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { useConfirmDialog } from '../widgets/confirm-dialog.js';
import { ErrorNotice, LoadedView, Notice, Panel, Select, useAction, useLoad } from '@ledgerwire/ui-kit';

type CustomerList = z.infer<typeof OperatorCustomerListOut>;
type Company = OperatorCompanyRecordOut;

export function CustomerLinkPanel({ company, onChanged }: { company: Company; onChanged: () => void }) {
  const api = useApi();
  const customers = useLoad(() => api.get<CustomerList>(withQuery('/admin/v1/customers', { application_id: company.application_id })), [company.application_id]);
  const [chosen, setChosen] = useState('');
  const [done, setDone] = useState<string | undefined>(undefined);
  const action = useAction();
  const path = `/admin/v1/companies/${company.company_id}/customer`;

  return (
    <Panel title="Customer">
      <LoadedView loaded={customers} what="the customers">
        {(data) => {
          const current = data.customers.find((c) => c.id === company.customer_id);
          if (company.customer_id !== null) {
            return (
              <div class="stack">
                <p>
                  Attached to <strong>{current?.name ?? company.customer_id}</strong> (<code>{company.customer_id}</code>). Only connectors this customer enrolled can be
                  paired with the company.
                </p>
                <div class="form-actions">
                  <button
                    type="button"
                    class="secondary"
                    disabled={action.busy}
                    onClick={() => {
                      setDone(undefined);
                      void action.run(async () => {
                        await api.del<OperatorCompanyOut>(path);
                        setDone(`Detached from ${current?.name ?? company.customer_id}. The application was told (company.unlinked); the pairing and the history stay.`);
                        onChanged();
                      });
                    }}
                  >
                    Detach from customer
                  </button>
                </div>
              </div>
            );
          }
          if (data.customers.length === 0) {
            return <p class="empty">This application has no customers yet, so there is nobody to attach the company to. The application creates them through POST /api/v1/customers.</p>;
          }
          const selected = chosen !== '' && data.customers.some((c) => c.id === chosen) ? chosen : (data.customers[0]?.id ?? '');
          return (
            <form
              class="form-row"
              aria-label="Attach to a customer"
              onSubmit={(event) => {
                event.preventDefault();
                setDone(undefined);
                const customer = data.customers.find((c) => c.id === selected);
                void action.run(async () => {
                  if (!customer) throw new Error('Choose the customer to attach the company to.');
                  await api.post<OperatorCompanyOut>(path, { customer_id: customer.id });
                  setDone(`Attached to ${customer.name}. The application was told (company.linked).`);
                  onChanged();
                });
              }}
            >
              <Select label="Customer" value={selected} onChange={setChosen} options={data.customers.map((c) => [c.id, c.external_id ? `${c.name} (${c.external_id})` : c.name] as const)} />
              <button type="submit" disabled={action.busy}>
                Attach to customer
              </button>
            </form>
          );
        }}
      </LoadedView>
      {done && <Notice tone="success">{done}</Notice>}
      <ErrorNotice error={action.error} title="The customer link did not change." />
    </Panel>
  );
}

export function DisconnectPanel({ company, onDisconnected }: { company: Company; onDisconnected: () => void }) {
  const api = useApi();
  const [done, setDone] = useState(false);
  const action = useAction();
  const { confirm, dialog } = useConfirmDialog();
  return (
    <Panel title="Disconnect">
      {dialog}
      {company.paired ? (
        <div class="stack">
          <p>
            Disconnecting stops sending this company’s writes to <strong>{company.books_company_name ?? company.books_company_guid}</strong>. New writes wait in the queue
            until the company is paired again; nothing is deleted.
          </p>
          <div class="form-actions">
            <button
              type="button"
              class="danger"
              disabled={action.busy}
              onClick={async () => {
                const books = company.books_company_name ?? company.books_company_guid ?? 'its books company';
                const yes = await confirm({
                  title: `Disconnect ${company.name} from ${books}?`,
                  message: 'Writes for it will wait in the queue until it is paired again. Nothing is deleted.',
                  confirmLabel: 'Disconnect',
                  danger: true,
                });
                if (!yes) return;
                setDone(false);
                void action.run(async () => {
                  await api.post<OperatorCompanyOut>(`/admin/v1/companies/${company.company_id}/disconnect`);
                  setDone(true);
                  onDisconnected();
                });
              }}
            >
              Disconnect company
            </button>
          </div>
        </div>
      ) : (
        !done && <p class="muted">This company is not paired with a connector, so there is nothing to disconnect.</p>
      )}
      {done && <Notice tone="success">Disconnected. Writes for this company now wait in the queue until you pair it again.</Notice>}
      <ErrorNotice error={action.error} title="The company was not disconnected." />
    </Panel>
  );
}
