// Time a test moves by hand, so nothing depends on how fast the machine is: pass `clock.now` wherever
// the relay takes `now` (buildApp, loop health) and `clock.date` wherever it takes a Clock (the gateway).
export type TestClock = Readonly<{
  /** Milliseconds since the epoch, as Date.now() answers. */
  now: () => number;
  /** The same instant as a Date, as the gateway's Clock answers. */
  date: () => Date;
  advance(ms: number): void;
  set(ms: number): void;
}>;

export function testClock(startMs: number): TestClock {
  let ms = startMs;
  return {
    now: () => ms,
    date: () => new Date(ms),
    advance(by) {
      ms += by;
    },
    set(to) {
      ms = to;
    },
  };
}

/** 12:00:30 UTC today: 30 s into a minute and far from midnight, so no per-minute or daily window straddles a boundary. */
export function midMinute(): number {
  const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  return day + 12 * 3_600_000 + 30_000;
}
