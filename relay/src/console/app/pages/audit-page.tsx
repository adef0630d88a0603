// The operator audit log: every change an operator made (or tried to make), newest first, filtered
// by who, what and which object, paged with "Older entries". Filters live in the address so a link
// to "everything Sam did to company 12" can be shared.
import { useState } from 'preact/hooks';
import type { AuditEntry, AuditLogOut } from '@ledgerwire/shared';
import { ErrorNotice, LoadedView, Page, Panel, Table, TextInput, useAction, useLoad } from '@ledgerwire/ui-kit';
import { useApi } from '../api-context.js';
import { withQuery } from '../api-client.js';
import { href, navigate, type Route } from '../router.js';
import { actorCell, outcomeCell, whenColumn } from './audit-trail.js';

const FILTERS = [
  ['actor', 'Operator id', 'opr_… or bootstrap'],
  ['action', 'Action', 'e.g. company.pair'],
  ['object_type', 'Object type', 'e.g. company'],
  ['object_id', 'Object id', 'e.g. 12'],
] as const;

export function AuditPage({ route }: { route: Route }) {
  const api = useApi();
  const filters = Object.fromEntries(FILTERS.map(([name]) => [name, route.query.get(name) ?? ''])) as Record<(typeof FILTERS)[number][0], string>;
  const [draft, setDraft] = useState(filters);
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [nextBefore, setNextBefore] = useState<number | null | undefined>(undefined);
  const more = useAction();
  const first = useLoad(async () => {
    setOlder([]);
    setNextBefore(undefined);
    return api.get<AuditLogOut>(withQuery('/admin/v1/audit-log', { ...filters, limit: 50 }));
  }, [route.visit]);

  return (
    <Page title="Audit log" intro="Every change made through the operator API or the console: who, what, to which object, when, from where, and whether it was allowed.">
      <Panel title="Filter">
        <form
          class="form-row"
          aria-label="Filter the audit log"
          onSubmit={(event) => {
            event.preventDefault();
            navigate(withQuery(href('audit'), draft));
          }}
        >
          {FILTERS.map(([name, label, placeholder]) => (
            <TextInput key={name} label={label} placeholder={placeholder} value={draft[name]} onInput={(value) => setDraft({ ...draft, [name]: value.trim() })} />
          ))}
          <button type="submit">Filter</button>
        </form>
      </Panel>
      <Panel title="Entries">
        <LoadedView loaded={first} what="the audit log">
          {(page) => {
            const entries = [...page.entries, ...older];
            const cursor = nextBefore === undefined ? page.next_before_id : nextBefore;
            return (
              <>
                <Table
                  caption="Audit log entries"
                  rows={entries}
                  rowKey={(e) => String(e.id)}
                  rowData={(e) => ({ 'data-action': e.action, 'data-actor': e.actor_id, 'data-outcome': e.outcome })}
                  empty="No entries match."
                  columns={[
                    whenColumn,
                    { title: 'Who', cell: actorCell },
                    { title: 'Action', cell: (e) => <code>{e.action}</code> },
                    { title: 'Object', cell: objectCell },
                    { title: 'Outcome', cell: outcomeCell },
                    { title: 'From', cell: (e) => <span title={e.user_agent ?? ''}>{e.ip}</span> },
                  ]}
                />
                {cursor !== null && (
                  <div class="form-actions">
                    <button
                      type="button"
                      class="secondary"
                      disabled={more.busy}
                      onClick={() =>
                        void more.run(async () => {
                          const next = await api.get<AuditLogOut>(withQuery('/admin/v1/audit-log', { ...filters, limit: 50, before_id: cursor }));
                          setOlder([...older, ...next.entries]);
                          setNextBefore(next.next_before_id);
                        })
                      }
                    >
                      Older entries
                    </button>
                  </div>
                )}
                <ErrorNotice error={more.error} title="Could not load older entries." />
              </>
            );
          }}
        </LoadedView>
      </Panel>
    </Page>
  );
}

function objectCell(entry: AuditEntry) {
  const text = `${entry.object_type}${entry.object_id === null ? '' : ` ${entry.object_id}`}`;
  if (entry.object_type === 'company' && entry.object_id !== null) return <a href={href('companies', entry.object_id)}>{text}</a>;
  return text;
}
