// Which cores the pipeline benchmark's programs run on. In a deployment the books (TallyPrime) run on
// the customer's PC and the relay on a server elsewhere; on a benchmark machine of few cores the three
// programs would otherwise take turns on the same cores, and the books' rate would measure the
// scheduler. So, on Linux with taskset (util-linux), the emulator — every thread of it — gets the last
// core to itself, in the alone runs and in the pipeline alike; this process (the relay), the connector
// and the busy program of the control share the other cores. Elsewhere nothing is placed, and the
// bench says so.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

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
