// The audit entries of one object as a compact table (the company page's "who paired / disconnected
// it and when"), and the columns the Audit page shares with it.
import type { AuditEntry, AuditLogOut } from '@ledgerwire/shared';
import { Badge, LoadedView, Panel, Table, When, useLoad, type Column } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';

export const ACTION_WORDS: Readonly<Record<string, string>> = {
  'company.pair': 'Paired',
  'company.disconnect': 'Disconnected',
  'company.attach_customer': 'Attached to a customer',
  'company.detach_customer': 'Detached from its customer',
  'company.update_settings': 'Changed settings',
};

export function actorCell(entry: AuditEntry) {
  return (
    <>
      {entry.actor_name} <span class="muted">({entry.actor_role})</span>
    </>
  );
}

export function outcomeCell(entry: AuditEntry) {
  const tone = entry.outcome === 'succeeded' ? 'good' : entry.outcome === 'refused' ? 'warn' : 'bad';
  return (
    <Badge tone={tone}>
      {entry.outcome} {entry.status}
    </Badge>
  );
}

export const whenColumn: Column<AuditEntry> = { title: 'When', cell: (e) => <When at={e.at} /> };

/** `reloadWhen`: a value that changes when the object may have been acted on (the page's own reload). */
export function AuditTrailPanel({ objectType, objectId, title, reloadWhen }: { objectType: string; objectId: string; title: string; reloadWhen?: unknown }) {
  const api = useApi();
  const loaded = useLoad(() => api.get<AuditLogOut>(withQuery('/admin/v1/audit-log', { object_type: objectType, object_id: objectId, limit: 20 })), [objectType, objectId, reloadWhen]);
  return (
    <Panel title={title}>
      <LoadedView loaded={loaded} what="the history">
        {({ entries }) => (
          <Table
            caption={title}
            rows={entries}
            rowKey={(e) => String(e.id)}
            rowData={(e) => ({ 'data-action': e.action, 'data-outcome': e.outcome })}
            empty="No operator has acted on it yet."
            columns={[
              whenColumn,
              { title: 'What', cell: (e) => ACTION_WORDS[e.action] ?? e.action },
              { title: 'Who', cell: actorCell },
              { title: 'Outcome', cell: outcomeCell },
            ]}
          />
        )}
      </LoadedView>
    </Panel>
  );
}
