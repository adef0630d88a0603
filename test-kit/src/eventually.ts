// Waiting for state another loop or process changes, by polling with a bound: tests never sleep a fixed
// time to synchronise, and a timeout says what was awaited and what was last seen.
export type EventuallyOptions = Readonly<{ timeoutMs?: number; intervalMs?: number }>;

type Settled<T> = Exclude<T, undefined | null | false | 0 | ''>;

/**
 * Calls `probe` until it answers a truthy value (undefined, false and other falsy answers, or a throw,
 * mean not yet) and returns it; fails after `timeoutMs` naming `what` and the last value or error.
 */
export async function eventually<T>(what: string, probe: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<Settled<T>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as Settled<T>;
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
