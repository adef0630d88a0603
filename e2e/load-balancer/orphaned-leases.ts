// Watches the shared PostgreSQL during a rolling restart for jobs held by a session that no longer owns
// its connector (a relay's session that was ending claimed them, then found the connector taken over and
// did not hand them back). Strict FIFO per company means one such job holds the company's whole queue
// until its lease runs out; the watch measures how long that lasted. Read-only: one query per sample.
import pg from 'pg';

export type OrphanedLeaseWatch = Readonly<{ stop(): Promise<{ longestMs: number; most: number }> }>;

export function watchOrphanedLeases(databaseUrl: string, everyMs = 200): OrphanedLeaseWatch {
  const client = new pg.Client({ connectionString: databaseUrl });
  let stopped = false;
  let since: number | undefined;
  let longestMs = 0;
  let most = 0;
  const sampling = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ held: string }>(
        `select count(*) as held from transactions t join connectors c on c.id = t.connector_id
          where t.status = 'processing' and t.lease_session is not null and t.lease_session <> coalesce(c.session_id, '')`,
      );
      const held = Number(rows[0]?.held ?? 0);
      const now = Date.now();
      most = Math.max(most, held);
      if (held > 0) since ??= now;
      else since = undefined;
      if (since !== undefined) longestMs = Math.max(longestMs, now - since);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await sampling.catch(() => undefined);
      await client.end().catch(() => undefined);
      return { longestMs, most };
    },
  };
}
