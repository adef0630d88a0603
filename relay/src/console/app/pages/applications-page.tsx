// Bridge applications: each is one integrating product with its own API keys, customers and companies.
import { useState } from 'preact/hooks';
import type { ApplicationListOut, ApplicationOut } from '@ledgerwire/shared';
import type { z } from 'zod';
import { useApi } from '../api-context.js';
import { useCan } from '../operator-context.js';
import { href, navigate } from '../router.js';
import { ErrorNotice, LoadedView, Page, Panel, Table, TextInput, When, useAction, useLoad } from '@ledgerwire/ui-kit';

type ApplicationList = z.infer<typeof ApplicationListOut>;
type Application = z.infer<typeof ApplicationOut>;

export function ApplicationsPage() {
  // Hidden or disabled when the role may not (the relay refuses it anyway).
  const canAdmin = useCan('admin');
  const api = useApi();
  const applications = useLoad(() => api.get<ApplicationList>('/admin/v1/applications'), []);
  const [name, setName] = useState('');
  const action = useAction();
  return (
    <Page title="Applications" intro="Each application is one product calling the accounting bridge API, with its own keys, customers and companies.">
      <Panel title="New application">
        <form
          class="form-row"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              const created = await api.post<Application>('/admin/v1/applications', { name });
              navigate(href('applications', created.application.id));
            });
          }}
        >
          <TextInput label="Application name" value={name} onInput={setName} required maxLength={200} />
          <button type="submit" disabled={action.busy || !canAdmin}>
            Create application
          </button>
        </form>
        <ErrorNotice error={action.error} title="The application was not created." />
      </Panel>
      <Panel title="All applications">
        <LoadedView loaded={applications} what="the applications">
          {(data) => (
            <Table
              caption="Applications"
              rows={data.applications}
              rowKey={(a) => a.id}
              empty="No applications yet. Create one above, then give it an API key."
              columns={[
                { title: 'Name', cell: (a) => <a href={href('applications', a.id)}>{a.name}</a> },
                { title: 'Id', cell: (a) => <code>{a.id}</code> },
                { title: 'Created', cell: (a) => <When at={a.created_at} /> },
              ]}
            />
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}
