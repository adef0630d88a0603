// The relay's one source of time. Every module takes it from the app (`app.clock`, clock-plugin.ts)
// instead of reading the system clock itself, so a test starts a relay at a pinned time and moves it
// (expiries, retries, limits, presence) without waiting.
export type RelayClock = Readonly<{
  /** Milliseconds since the epoch, as Date.now. */
  now: () => number;
  /** The same instant as a Date. */
  date: () => Date;
}>;

export function relayClock(now: () => number = Date.now): RelayClock {
  return Object.freeze({ now, date: () => new Date(now()) });
}
