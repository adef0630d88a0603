// Waiting for state another loop or process changes, by polling with a bound: tests never sleep a fixed
// time to synchronise, and a timeout says what was awaited and what was last seen.
export type EventuallyOptions = Readonly<{
  timeoutMs?: number;
  intervalMs?: number;
  /** Asked before each try: an error here ends the wait at once (the process that should answer died). */
  giveUp?: () => Error | undefined;
}>;

type Settled<T> = Exclude<T, undefined | null | false | 0 | ''>;

/**
 * Calls `probe` until its answer settles and returns that answer: a truthy one, or with `until`, one the
 * predicate accepts (a throw always means not yet). Fails after `timeoutMs` (default 15 s) naming `what`
 * and the last value or error.
 */
export function eventually<T>(what: string, probe: () => T | Promise<T>, options: EventuallyOptions & { until: (value: T) => boolean }): Promise<T>;
export function eventually<T>(what: string, probe: () => T | Promise<T>, options?: EventuallyOptions): Promise<Settled<T>>;
export async function eventually<T>(what: string, probe: () => T | Promise<T>, options: EventuallyOptions & { until?: (value: T) => boolean } = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const intervalMs = options.intervalMs ?? 25;
  const settled = options.until ?? ((value: T) => Boolean(value));
  const deadline = Date.now() + timeoutMs;
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  for (;;) {
    const reason = options.giveUp?.();
    if (reason) throw reason;
    try {
      const value = await probe();
      if (settled(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms; last ${describeLast(last)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describeLast(last: { value: unknown } | { error: unknown }): string {
  if ('error' in last) return `error: ${last.error instanceof Error ? last.error.message : String(last.error)}`;
  try {
    return `value: ${JSON.stringify(last.value)?.slice(0, 2000)}`;
  } catch {
    return `value: ${String(last.value)}`;
  }
}
