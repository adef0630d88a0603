// The rolling restart: writes flow through nginx at a steady pace while the relays are restarted one
// after the other (SIGTERM, wait for the exit, start again, wait for its /readyz and for nginx to send
// it traffic again, then the next). Afterwards: every accepted voucher is in the books exactly once,
// the connector moved to a surviving relay each time its own went down, the presence webhooks were
// neither doubled nor lost, and the longest waits are measured: the connector without a session (held
// to one reconnect) and the books idle while work waited (held below a job lease, see STALL_BOUND_MS).
import { eventually } from '@ledgerwire/test-kit';
import { BalancedCluster, CONNECTOR_ENV, RELAY_ENV, type Transaction } from './balanced-cluster.js';
import { watchOrphanedLeases } from './orphaned-leases.js';

export const SOCKET_PATH = '/api/v1/connectors/socket';

/**
 * One reconnect: the connector's longest backoff, plus the close handshake the relay allows before it
 * cuts a peer off (1 s) and the relay's claim pass (the job that waited behind the old session).
 */
export const ONE_RECONNECT_MS = Number(CONNECTOR_ENV.LEDGERWIRE_RECONNECT_CAP_MS) + 1000 + Number(RELAY_ENV.CONNECTOR_CLAIM_INTERVAL_MS);

/** The longest the books may sit idle while work waits: less than a job lease (CONNECTOR_LEASE_MS). */
export const STALL_BOUND_MS = Number(RELAY_ENV.CONNECTOR_LEASE_MS) - 1000;

/** `at`: when the SIGTERM was sent, in ms from the start of the writes (the stall and events are placed on the same line). */
export type RestartRecord = Readonly<{ relay: string; at: number; exitCode: number | null; shutdownMs: number; downMs: number; backInRotationMs: number }>;

export type RollingRestartReport = Readonly<{
  relays: number;
  rounds: number;
  accepted: number;
  /** Posts nginx or a relay refused, by HTTP status (0: no answer); each retried with the same transaction_id. */
  refusedPosts: Readonly<Record<string, number>>;
  completed: number;
  failed: number;
  lost: number;
  duplicated: number;
  stuck: number;
  presence: Readonly<{ online: number; offline: number }>;
  /** Connector sessions (WebSockets) as nginx saw them, in order: the relay each one was on. */
  sessions: readonly string[];
  /** Upgrades nginx answered with anything but 101 (the connector then tried again). */
  refusedUpgrades: number;
  /** The longest time the connector had no session (one closed, the next not yet open). */
  longestReconnectMs: number;
  /** The longest time work was waiting and nothing was completed in the books. */
  longestStallMs: number;
  /** When the longest stall began, in ms from the start of the writes. */
  longestStallAt: number;
  /** The longest time some job stayed leased to a session that no longer owned the connector, and the most such jobs at once. */
  orphanedLeases: Readonly<{ longestMs: number; most: number }>;
  restarts: readonly RestartRecord[];
  /** What went wrong: a voucher lost, booked twice or stuck, presence raised twice, a relay that did not stop cleanly. */
  failures: readonly string[];
  /**
   * Timings past their targets (a reconnect, the books' stall, orphaned leases). Measured on a shared
   * machine they are figures to read, not verdicts: the long run (run-rolling-restart.ts) fails on
   * them, `npm test` prints them.
   */
  overTarget: readonly string[];
}>;

export type RollingRestartOptions = Readonly<{
  relays: number;
  /** At least this many vouchers; writes go on until the last restart is over. */
  vouchers: number;
  /** How many times every relay is restarted. */
  rounds: number;
  postsPerSecond: number;
  deadlineMs: number;
}>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runRollingRestart(options: RollingRestartOptions): Promise<RollingRestartReport> {
  const cluster = new BalancedCluster(options.relays);
  try {
    await cluster.start();
    await eventually('the first connector.online webhook', async () => (cluster.receiver?.received.some((e) => e.type === 'connector.online') ? true : undefined), { timeoutMs: 30_000 }).catch(
      async (error: unknown) => {
        throw new Error(`${String(error)}\n${await cluster.diagnostics()}`);
      },
    );

    let restartsOver = false;
    const origin = Date.now();
    const orphanWatch = watchOrphanedLeases(cluster.postgres.url);
    const restarting = restartEach(cluster, options.rounds, origin).finally(() => (restartsOver = true));
    const writing = writeUntil(cluster, options, () => restartsOver);
    const [restarts, written] = await Promise.all([restarting, writing]);
    const lastRestartEnded = Date.now();
    if (cluster.unexpectedExits.length > 0) throw new Error(cluster.unexpectedExits.join('\n'));

    const transactions = await drain(cluster, options.deadlineMs);
    const orphanedLeases = await orphanWatch.stop();
    const failures: string[] = [];
    const overTarget: string[] = [];
    const outcome = await booksOutcome(cluster, written.accepted, transactions, failures);

    // A connector.offline (and the connector.online after it) would be published once the connector had
    // been without a session for the grace period, or its relay silent for three heartbeats: wait that
    // long after the last restart before counting, so a wrongly published event has had its chance.
    const window = Number(RELAY_ENV.CONNECTOR_OFFLINE_GRACE_MS) + 3 * Number(RELAY_ENV.CONNECTOR_HEARTBEAT_MS) + 1000;
    await pause(Math.max(0, lastRestartEnded + window - Date.now()));
    const received = cluster.receiver?.received ?? [];
    const presence = { online: received.filter((e) => e.type === 'connector.online').length, offline: received.filter((e) => e.type === 'connector.offline').length };
    if (presence.online !== 1 || presence.offline !== 0) {
      const events = (await cluster.presenceDeliveries()).map((d) => `${d.event_type} at ${Date.parse(d.created_at) - origin} ms`);
      failures.push(`presence webhooks: ${presence.online} connector.online and ${presence.offline} connector.offline (expected 1 and 0): ${events.join(', ')}`);
    }

    // The connector's last session is still open; once it is stopped, nginx logs that one too.
    const sessionsBefore = socketRequests(cluster).filter((r) => r.status === 101).length;
    await cluster.stopConnector();
    await eventually("the connector's last session in nginx's log", async () => (socketRequests(cluster).filter((r) => r.status === 101).length > sessionsBefore ? true : undefined), { timeoutMs: 10_000 });
    const sockets = socketRequests(cluster);
    const sessions = sockets.filter((r) => r.status === 101).sort((a, b) => a.startedAt - b.startedAt);
    let longestReconnectMs = 0;
    for (let i = 1; i < sessions.length; i++) {
      const gap = sessions[i]!.startedAt - sessions[i - 1]!.endedAt;
      longestReconnectMs = Math.max(longestReconnectMs, gap);
      if (sessions[i]!.relay === sessions[i - 1]!.relay) failures.push(`the connector came back to ${sessions[i]!.relay}, the relay it had just lost`);
    }
    // Every restart of the relay the connector was on closes a session: one more session per such restart.
    if (sessions.length < 1) failures.push('nginx logged no ended connector session: the connector never moved');
    if (longestReconnectMs > ONE_RECONNECT_MS) overTarget.push(`the connector was without a session for ${longestReconnectMs} ms (one reconnect: ${ONE_RECONNECT_MS} ms)`);
    const stall = longestStall(transactions);
    const longestStallMs = stall.ms;
    // The books' stall is held to a looser bound than the reconnect itself: after a move the connector
    // often lands on the relay restarted just before (nginx had only just put it back in rotation), and
    // a relay seconds old on a loaded machine records its first results slowly (seen: 1 s idle, 2–4.6 s
    // at load 8–12 on two cores, with the books done in time). A job stranded under a dead session would
    // instead wait for its lease to run out: that is the failure this bound catches.
    if (longestStallMs > STALL_BOUND_MS) {
      // What ended the stall: the first completions after it (created when, retried how often).
      const after = transactions
        .filter((t) => t.completed_at !== null && Date.parse(t.completed_at) >= stall.from + longestStallMs)
        .sort((x, y) => Date.parse(x.completed_at!) - Date.parse(y.completed_at!))
        .slice(0, 5)
        .map((t) => `${t.transaction_id} created ${Date.parse(t.created_at) - origin} ms, retried ${t.retry_count ?? 0}`);
      overTarget.push(`the books completed nothing for ${longestStallMs} ms while work waited (bound ${STALL_BOUND_MS} ms); then: ${after.join('; ')}`);
      overTarget.push(`the connector meanwhile:\n${cluster.connectorLogBetween(stall.from - 500, stall.from + longestStallMs + 200).slice(0, 40).join('\n')}`);
    }
    if (orphanedLeases.longestMs > ONE_RECONNECT_MS) overTarget.push(`jobs stayed leased to a session that had lost its connector for ${orphanedLeases.longestMs} ms`);
    for (const restart of restarts) if (restart.exitCode !== 0) failures.push(`relay ${restart.relay} exited ${restart.exitCode} on SIGTERM`);

    return {
      relays: options.relays,
      rounds: options.rounds,
      accepted: written.accepted.size,
      refusedPosts: written.refused,
      ...outcome,
      presence,
      sessions: sessions.map((s) => s.relay),
      refusedUpgrades: sockets.length - sessions.length,
      longestReconnectMs,
      longestStallMs,
      longestStallAt: stall.from - origin,
      orphanedLeases,
      restarts,
      failures,
      overTarget,
    };
  } finally {
    await cluster.stop();
  }
}

function socketRequests(cluster: BalancedCluster) {
  return cluster.balancer?.accessLog().filter((r) => r.uri === SOCKET_PATH) ?? [];
}

async function restartEach(cluster: BalancedCluster, rounds: number, origin: number): Promise<RestartRecord[]> {
  const records: RestartRecord[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < cluster.relayPorts.length; index++) {
      const relay = cluster.relayAddress(index);
      const stoppedAt = Date.now();
      const exitCode = await cluster.stopRelay(index);
      const exitedAt = Date.now();
      await cluster.startRelay(index);
      await eventually(`${relay} ready`, async () => ((await cluster.relayReady(index)) ? true : undefined), { timeoutMs: 60_000 });
      const readyAt = Date.now();
      // nginx took the relay out of rotation when it refused connections; it sends it requests again
      // after fail_timeout. The next relay goes down only once this one carries traffic.
      await eventually(`${relay} back in nginx's rotation`, async () => ((await cluster.balancedReadyzAnsweredBy()) === relay ? true : undefined), { timeoutMs: 60_000 });
      records.push({ relay, at: stoppedAt - origin, exitCode, shutdownMs: exitedAt - stoppedAt, downMs: readyAt - stoppedAt, backInRotationMs: Date.now() - readyAt });
    }
  }
  return records;
}

/** Posts at a steady pace until at least `vouchers` are accepted and the restarts are over. */
async function writeUntil(cluster: BalancedCluster, options: RollingRestartOptions, restartsOver: () => boolean): Promise<{ accepted: Set<string>; refused: Record<string, number> }> {
  const accepted = new Set<string>();
  const refused: Record<string, number> = {};
  const posts: Promise<void>[] = [];
  const post = async (tag: string) => {
    // An integrator's client: a refused or unanswered post is sent again with the same transaction_id.
    for (let attempt = 0; attempt < 300; attempt++) {
      const status = await cluster.postJournal(tag);
      if (status === 200) return void accepted.add(tag);
      refused[status] = (refused[status] ?? 0) + 1;
      await pause(100);
    }
  };
  const started = Date.now();
  for (let i = 0; i < options.vouchers || !restartsOver(); i++) {
    posts.push(post(`LB-${started}-${i + 1}`));
    await pause(Math.max(0, started + ((i + 1) * 1000) / options.postsPerSecond - Date.now()));
  }
  await Promise.all(posts);
  return { accepted, refused };
}

async function drain(cluster: BalancedCluster, deadlineMs: number): Promise<Transaction[]> {
  const deadline = Date.now() + deadlineMs;
  let transactions = await cluster.transactions();
  while (transactions.some((t) => t.status === 'queued' || t.status === 'processing') && Date.now() < deadline) {
    await pause(250);
    transactions = await cluster.transactions().catch(() => transactions);
  }
  return transactions;
}

async function booksOutcome(cluster: BalancedCluster, accepted: ReadonlySet<string>, transactions: readonly Transaction[], failures: string[]) {
  const inBooks = new Map<string, number>();
  for (const v of await cluster.booksVouchers()) {
    const tag = /^load balancer (\S+)$/.exec(v.narration)?.[1];
    if (tag) inBooks.set(tag, (inBooks.get(tag) ?? 0) + 1);
  }
  const byTag = new Map(transactions.map((t) => [t.transaction_id, t]));
  const counts = { completed: 0, failed: 0, lost: 0, duplicated: 0, stuck: 0 };
  for (const tag of accepted) {
    const transaction = byTag.get(tag);
    const count = inBooks.get(tag) ?? 0;
    if (count > 1) {
      counts.duplicated += count - 1;
      failures.push(`${tag} is in the books ${count} times`);
    }
    if (transaction?.status === 'completed') {
      counts.completed += 1;
      if (count === 0) {
        counts.lost += 1;
        failures.push(`${tag} completed but is not in the books`);
      }
    } else if (transaction?.status === 'failed') {
      counts.failed += 1;
      failures.push(`${tag} failed (${transaction.error_code ?? 'no reason'})`);
    } else if (transaction) {
      counts.stuck += 1;
      failures.push(`${tag} is still ${transaction.status}`);
    } else {
      counts.lost += 1;
      failures.push(`${tag} was accepted but the relay has no transaction for it`);
    }
  }
  return counts;
}

/**
 * The longest stretch in which some transaction was waiting and none was completed: between two
 * completions, from the later of the first completion and the oldest still-open transaction's creation.
 */
export function longestStall(transactions: readonly Transaction[]): { ms: number; from: number } {
  const done = transactions
    .filter((t): t is Transaction & { completed_at: string } => t.completed_at !== null)
    .map((t) => ({ created: Date.parse(t.created_at), completed: Date.parse(t.completed_at) }))
    .sort((a, b) => a.completed - b.completed);
  const oldestOpenAfter: number[] = new Array<number>(done.length + 1).fill(Infinity);
  for (let i = done.length - 1; i >= 0; i--) oldestOpenAfter[i] = Math.min(oldestOpenAfter[i + 1]!, done[i]!.created);
  let longest = { ms: 0, from: 0 };
  for (let i = 1; i < done.length; i++) {
    const from = Math.max(done[i - 1]!.completed, oldestOpenAfter[i]!);
    if (done[i]!.completed - from > longest.ms) longest = { ms: done[i]!.completed - from, from };
  }
  return longest;
}

export function formatRollingRestart(report: RollingRestartReport): string {
  const verdict = report.failures.length === 0 ? 'ok  ' : 'FAIL';
  const lines = [
    `${verdict} rolling restart: ${report.relays} relays × ${report.rounds} round(s) behind nginx`,
    `  vouchers accepted ${report.accepted} (posts refused and retried: ${JSON.stringify(report.refusedPosts)})  completed ${report.completed}  failed ${report.failed}  lost ${report.lost}  duplicated ${report.duplicated}  stuck ${report.stuck}`,
    `  presence webhooks: connector.online ${report.presence.online} (target 1)  connector.offline ${report.presence.offline} (target 0)`,
    `  connector sessions: ${report.sessions.join(' → ') || 'none ended'}  (upgrades refused: ${report.refusedUpgrades})`,
    `  longest without a session ${report.longestReconnectMs} ms, longest stall of the books ${report.longestStallMs} ms from ${report.longestStallAt} ms (target: one reconnect, ${ONE_RECONNECT_MS} ms; bound ${STALL_BOUND_MS} ms)`,
    `  jobs leased to a session that had lost its connector: at most ${report.orphanedLeases.most}, for at most ${report.orphanedLeases.longestMs} ms`,
    ...report.restarts.map((r) => `  restart ${r.relay} at ${r.at} ms: exit ${r.exitCode} after ${r.shutdownMs} ms, ready ${r.downMs} ms after SIGTERM, back in rotation ${r.backInRotationMs} ms later`),
    ...report.failures.slice(0, 20).map((f) => `  ! ${f}`),
    ...report.overTarget.slice(0, 20).map((f) => `  over target: ${f}`),
  ];
  return lines.join('\n');
}
