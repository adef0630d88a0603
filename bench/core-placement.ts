// Which cores the pipeline benchmark's programs run on. In a deployment the books (TallyPrime) run on
// the customer's PC and the relay on a server elsewhere; on a benchmark machine of few cores the three
// programs would otherwise take turns on the same cores, and the books' rate would measure the
// scheduler. So, on Linux with taskset (util-linux), the emulator — every thread of it — gets the last
// core to itself, in the alone runs and in the pipeline alike; this process (the relay), the connector
// and the busy program of the control share the other cores. Elsewhere nothing is placed, and the
// bench says so.
// On those shared cores the relay would otherwise take its turns from the connector: an import answer
// that arrives while the relay records the last request's outcomes waits for the relay's time slice,
// and the books with it — a wait no deployment has, the relay being on another machine. So while the
// pipeline drains, the relay's main thread runs at a lower priority (relayBehindConnector); its CPU
// time, and the connector's, are measured as before.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

/** The niceness the relay's main thread takes while the pipeline drains (the connector keeps 0). */
export const RELAY_NICENESS = 10;

/**
 * Lowers this process's main thread (the relay) to RELAY_NICENESS until the returned function is
 * called. Call it after the connector was started: a program started meanwhile would inherit it.
 * Returns the niceness in words, for the bench's output.
 */
export function relayBehindConnector(): { description: string; restore(): void } {
  const before = os.getPriority(0);
  try {
    os.setPriority(0, RELAY_NICENESS);
  } catch (error) {
    return { description: `the relay's priority left as it was (${(error as Error).message})`, restore: () => undefined };
  }
  return {
    description: `the relay's main thread at niceness ${RELAY_NICENESS} while the pipeline drains, the connector at ${before}`,
    restore: () => os.setPriority(0, before),
  };
}

export type CorePlacement = Readonly<{
  /** In words, for the bench's output. */
  description: string;
  /** The command the emulator is started through (empty when unplaced). */
  booksLauncher: readonly string[];
  /** Gives this process all cores again. */
  release(): void;
}>;

function taskset(args: readonly string[]): boolean {
  const result = spawnSync('taskset', args, { stdio: 'ignore' });
  return result.error === undefined && result.status === 0;
}

function unplaced(why: string): CorePlacement {
  return { description: `not placed (${why}): the three programs share every core`, booksLauncher: [], release: () => undefined };
}

/** Places this process (and so every program it starts from now on) off the books' core. */
export function placeOnCores(): CorePlacement {
  const cores = os.availableParallelism();
  if (process.platform !== 'linux') return unplaced(process.platform);
  if (cores < 2) return unplaced('one core');
  const booksCore = cores - 1;
  const others = booksCore === 1 ? '0' : `0-${booksCore - 1}`;
  // -a: every thread of this process (the event loop, libuv's pool, V8's helpers); programs it starts inherit it.
  if (!taskset(['-a', '-p', '-c', others, String(process.pid)])) return unplaced('taskset is not available');
  return {
    description: `the emulator on core ${booksCore} of its own; relay and connector on core${others === '0' ? '' : 's'} ${others}`,
    booksLauncher: ['taskset', '-c', String(booksCore)],
    release() {
      taskset(['-a', '-p', '-c', `0-${booksCore}`, String(process.pid)]);
    },
  };
}
