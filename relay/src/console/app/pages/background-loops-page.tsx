// Operations → Background work: each background loop of the relay the console is talking to, with its
// last pass, last error, how long the oldest due row has waited, and whether it is stuck (what /readyz
// reports to the load balancer). Refreshes itself.
import type { ConsoleBackgroundLoopsOut } from '@ledgerwire/shared';
import { useApi } from '../api-context.js';
import { Badge, LoadedView, Notice, Page, Panel, Table, When, useAutoRefresh, useLoad } from '@ledgerwire/ui-kit';

const REFRESH_MS = 10_000;

/** A lag as a person reads it: "none", "850 ms", "42 s", "3 min". */
function lagWords(ms: number | null): string {
  if (ms === null) return '—';
  if (ms === 0) return 'none';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

export function BackgroundLoopsPage() {
  const api = useApi();
  const loops = useLoad(() => api.get<ConsoleBackgroundLoopsOut>('/admin/v1/console/background-loops'), []);
  useAutoRefresh(loops.reload, REFRESH_MS);
  return (
    <Page
      title="Background work"
      intro="The relay sends messages, delivers webhooks and hands jobs to connectors in background loops. A loop is stuck when it has not finished a pass for five of its intervals (at least a minute) beyond its own wait; the load balancer then takes this relay out (/readyz answers 503)."
      actions={
        <button type="button" class="secondary" onClick={loops.reload}>
          Refresh
        </button>
      }
    >
      <Panel title="Loops of this relay">
        <LoadedView loaded={loops} what="the background loops">
          {(data) => (
            <>
              {data.readiness === 'unavailable' && (
                <Notice tone="warning">This relay reports itself not ready: a loop below is stuck, or the database does not answer. Its log says why.</Notice>
              )}
              <Table
                caption="Background loops"
                rows={data.loops}
                rowKey={(loop) => loop.name}
                empty="This relay runs no background loops."
                columns={[
                  { title: 'Loop', cell: (loop) => <code>{loop.name}</code> },
                  {
                    title: 'State',
                    cell: (loop) =>
                      loop.stuck ? <Badge tone="bad">stuck</Badge> : !loop.running ? <Badge tone="warn">not running</Badge> : loop.consecutive_failures > 0 ? <Badge tone="warn">failing</Badge> : <Badge tone="good">working</Badge>,
                  },
                  { title: 'Last pass', cell: (loop) => (loop.last_pass_at === null ? <span class="muted">none yet</span> : <When at={loop.last_pass_at} />) },
                  { title: 'Oldest due waiting', cell: (loop) => lagWords(loop.oldest_due_lag_ms) },
                  {
                    title: 'Last error',
                    cell: (loop) =>
                      loop.last_error === null ? (
                        <span class="muted">none</span>
                      ) : (
                        <span>
                          {loop.last_error} {loop.last_error_at !== null && <When at={loop.last_error_at} />}
                        </span>
                      ),
                  },
                ]}
              />
            </>
          )}
        </LoadedView>
      </Panel>
    </Page>
  );
}
