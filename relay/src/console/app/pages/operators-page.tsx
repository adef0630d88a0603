// Operator accounts (admins only): create one per person with a role, rotate a token, revoke an
// account. A new token is shown once; the relay keeps only its SHA-256.
import { useState } from 'preact/hooks';
import { OPERATOR_ROLES, type OperatorAccount, type OperatorAccountListOut, type OperatorAccountTokenOut, type OperatorRole } from '@ledgerwire/shared';
import { Badge, ErrorNotice, LoadedView, OneTimeSecret, Page, Panel, Select, Table, TextInput, When, useAction, useLoad } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { useConfirmDialog } from '../widgets/confirm-dialog.js';

const ROLE_WORDS: Readonly<Record<OperatorRole, string>> = {
  viewer: 'Viewer — reads only',
  support: 'Support — pairs, disconnects, redelivers, rotates customer tokens',
  admin: 'Admin — keys, applications, tenants, operators',
};

export function OperatorsPage() {
  const api = useApi();
  const operators = useLoad(() => api.get<OperatorAccountListOut>('/admin/v1/operators'), []);
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('support');
  const [secret, setSecret] = useState<{ label: string; token: string } | undefined>(undefined);
  const action = useAction();
  const { confirm, dialog } = useConfirmDialog();

  const rotate = (operator: OperatorAccount) =>
    void action.run(async () => {
      const rotated = await api.post<OperatorAccountTokenOut>(`/admin/v1/operators/${operator.id}/rotate-token`);
      setSecret({ label: `New token for ${operator.name}`, token: rotated.token });
      operators.reload();
    });
  const revoke = async (operator: OperatorAccount) => {
    const yes = await confirm({
      title: `Revoke ${operator.name}?`,
      message: 'Their token stops working at once, on every relay. The account stays in the list and in the audit log.',
      confirmLabel: 'Revoke',
      danger: true,
    });
    if (!yes) return;
    void action.run(async () => {
      await api.del(`/admin/v1/operators/${operator.id}`);
      operators.reload();
    });
  };

  return (
    <Page title="Operators" intro="One account per person, so the audit log says who did what. Roles: viewer < support < admin.">
      {dialog}
      {secret && <OneTimeSecret label={secret.label} value={secret.token} onDismiss={() => setSecret(undefined)} />}
      <Panel title="New operator">
        <form
          class="form-row"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              const created = await api.post<OperatorAccountTokenOut>('/admin/v1/operators', { name, role });
              setSecret({ label: `Token for ${created.operator.name}`, token: created.token });
              setName('');
              operators.reload();
            });
          }}
        >
          <TextInput label="Name" value={name} onInput={setName} required maxLength={100} placeholder="Asha (support desk)" />
          <Select label="Role" value={role} onChange={(value) => setRole(value as OperatorRole)} options={OPERATOR_ROLES.map((r) => [r, ROLE_WORDS[r]] as const)} />
          <button type="submit" disabled={action.busy}>
            Create operator
          </button>
        </form>
        <ErrorNotice error={action.error} title="That did not work." />
      </Panel>
      <Panel title="All operators">
        <LoadedView loaded={operators} what="the operators">
          {(data) => (
            <Table
              caption="Operators"
              rows={data.operators}
              rowKey={(o) => o.id}
              rowData={(o) => ({ 'data-operator': o.id, 'data-status': o.status })}
              empty="No operator accounts yet: everyone signs in with the bootstrap token. Create one per person."
              columns={[
                { title: 'Name', cell: (o) => o.name },
                { title: 'Role', cell: (o) => o.role },
                { title: 'Status', cell: (o) => <Badge tone={o.status === 'active' ? 'good' : 'neutral'}>{o.status}</Badge> },
                { title: 'Created', cell: (o) => <When at={o.created_at} /> },
                { title: 'Id', cell: (o) => <code>{o.id}</code> },
                {
                  title: 'Actions',
                  cell: (o) =>
                    o.status === 'active' ? (
                      <div class="row">
                        <button type="button" class="secondary" disabled={action.busy} onClick={() => rotate(o)}>
                          Rotate token
                        </button>
                        <button type="button" class="danger" disabled={action.busy} onClick={() => void revoke(o)}>
                          Revoke
                        </button>
                      </div>
                    ) : (
                      <span class="muted">
                        revoked <When at={o.revoked_at} />
                      </span>
                    ),
                },
              ]}
            />
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}
