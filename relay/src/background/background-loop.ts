// Every background loop of the relay (dispatch worker, webhook retrier, lease reaper, …) runs through
// this: one pass at a time, woken early by wake(), errors caught and logged with context, backing off
// after failures, and its health for /readyz and the console's Operations page (loop-health.ts says
// when a loop counts as stuck). Tests call runOnce() directly and pass `now` to move time themselves.
import type { FastifyBaseLogger } from 'fastify';
import { isStuck, type LoopHealth, type LoopReport } from './loop-health.js';

export type { LoopHealth, LoopReport } from './loop-health.js';

export type BackgroundLoop = Readonly<{
  name: string;
  start(): void;
  stop(): Promise<void>;
  /** Run a pass now (or right after the current one). */
  wake(): void;
  /** Run exactly one pass and wait for it; used by tests and by wake-ups. */
  runOnce(): Promise<void>;
  health(): LoopHealth;
  /** health() with the lag of the oldest due row, read from the database (for /readyz and the console). */
  report(): Promise<LoopReport>;
}>;

export function createBackgroundLoop(options: {
  name: string;
  intervalMs: number;
  maxBackoffMs?: number;
  log: FastifyBaseLogger;
  /** One pass. Return true when there may be more work right away (the loop runs again at once). */
  pass(): Promise<boolean | void>;
  /** When the oldest row this loop should already have worked became due (null: none is due). */
  oldestDue?: (now: Date) => Promise<Date | null>;
  /** Milliseconds since the epoch; tests move it. Default Date.now. */
  now?: () => number;
}): BackgroundLoop {
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const now = options.now ?? Date.now;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let again = false;
  let startedAt: number | null = null;
  let lastPassAt: number | null = null;
  let lastError: string | null = null;
  let lastErrorAt: number | null = null;
  let failures = 0;
  let nextDelayMs = 0;

  const schedule = (delay: number) => {
    nextDelayMs = delay;
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => void runOnce(), delay);
    timer.unref();
  };

  async function runPass(): Promise<boolean> {
    try {
      const more = await options.pass();
      failures = 0;
      return more === true;
    } catch (error) {
      failures += 1;
      lastError = error instanceof Error ? error.message : String(error);
      lastErrorAt = now();
      options.log.error({ err: error, loop: options.name, failures }, 'background loop pass failed');
      return false;
    } finally {
      lastPassAt = now();
    }
  }

  function runOnce(): Promise<void> {
    if (current) {
      again = true;
      return current;
    }
    current = (async () => {
      let more = await runPass();
      while ((more || again) && running) {
        again = false;
        more = await runPass();
      }
    })().finally(() => {
      current = undefined;
      const backoff = failures === 0 ? options.intervalMs : Math.min(maxBackoffMs, options.intervalMs * 2 ** failures);
      schedule(backoff);
    });
    return current;
  }

  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

  function health(): LoopHealth {
    const at = now();
    return {
      name: options.name,
      running,
      intervalMs: options.intervalMs,
      lastPassAt: iso(lastPassAt),
      lastError,
      lastErrorAt: iso(lastErrorAt),
      consecutiveFailures: failures,
      stuck: isStuck({ running, intervalMs: options.intervalMs, nextDelayMs, since: lastPassAt ?? startedAt, now: at }),
    };
  }

  return Object.freeze({
    name: options.name,
    start() {
      if (running) return;
      running = true;
      startedAt = now();
      schedule(0);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
    wake() {
      if (running) void runOnce();
    },
    runOnce,
    health,
    async report() {
      const snapshot = health();
      if (options.oldestDue === undefined) return { ...snapshot, oldestDueLagMs: null };
      const at = now();
      const due = await options.oldestDue(new Date(at));
      return { ...snapshot, oldestDueLagMs: due === null ? 0 : Math.max(0, at - due.getTime()) };
    },
  });
}
