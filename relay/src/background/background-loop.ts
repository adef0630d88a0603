// Every background loop of the relay (dispatch worker, webhook retrier, lease reaper, …) runs through
// this: one pass at a time, woken early by wake(), errors caught and logged with context, backing off
// after failures, and a health snapshot for /readyz and the console. Tests call runOnce() directly.
import type { FastifyBaseLogger } from 'fastify';

export type LoopHealth = Readonly<{
  name: string;
  running: boolean;
  lastRunAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
}>;

export type BackgroundLoop = Readonly<{
  name: string;
  start(): void;
  stop(): Promise<void>;
  /** Run a pass now (or right after the current one). */
  wake(): void;
  /** Run exactly one pass and wait for it; used by tests and by wake-ups. */
  runOnce(): Promise<void>;
  health(): LoopHealth;
}>;

export function createBackgroundLoop(options: {
  name: string;
  intervalMs: number;
  maxBackoffMs?: number;
  log: FastifyBaseLogger;
  /** One pass. Return true when there may be more work right away (the loop runs again at once). */
  pass(): Promise<boolean | void>;
}): BackgroundLoop {
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let again = false;
  let lastRunAt: string | null = null;
  let lastError: string | null = null;
  let failures = 0;

  const schedule = (delay: number) => {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => void runOnce(), delay);
    timer.unref();
  };

  async function runPass(): Promise<boolean> {
    try {
      const more = await options.pass();
      failures = 0;
      lastError = null;
      return more === true;
    } catch (error) {
      failures += 1;
      lastError = error instanceof Error ? error.message : String(error);
      options.log.error({ err: error, loop: options.name, failures }, 'background loop pass failed');
      return false;
    } finally {
      lastRunAt = new Date().toISOString();
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

  return Object.freeze({
    name: options.name,
    start() {
      if (running) return;
      running = true;
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
    health: () => ({ name: options.name, running, lastRunAt, lastError, consecutiveFailures: failures }),
  });
}
