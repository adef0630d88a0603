// How long the books have been busy: the union of the spans from a request being read (its headers,
// the first bytes the server sees) to its answer's last byte handed to the connection, so two requests
// that overlap (one queued behind another) count their common time once. The control API reports it
// (`GET /busy`); a client samples it twice and divides the difference by the time between, to learn
// how much of the wall time the books spent working rather than waiting for the next request.
import { performance } from 'node:perf_hooks';

export type BusySample = Readonly<{
  /** Busy time since the process started (ms), the span under way included up to `clockMs`. */
  busyMs: number;
  /** Requests begun since the process started. */
  requests: number;
  /** TCP connections accepted since the process started (fewer than requests: clients keep them). */
  connections: number;
  /** The emulator's monotonic clock when sampled (ms since the process started). */
  clockMs: number;
  /** Requests under way (read, not yet answered or dropped). */
  serving: number;
  /** When the last span ended (the clock as above), or null while one is under way or none has run. */
  idleSinceMs: number | null;
}>;

export class BusyTime {
  private open = 0;
  private since = 0;
  private closedMs = 0;
  private began = 0;
  private connected = 0;
  private lastEnd: number | null = null;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** A request is read; the returned function ends its span (once, whatever calls it again). */
  begin(): () => void {
    if (this.open === 0) this.since = this.clock();
    this.open += 1;
    this.began += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.open -= 1;
      if (this.open > 0) return;
      const now = this.clock();
      this.closedMs += now - this.since;
      this.lastEnd = now;
    };
  }

  /** A client connected. */
  connection(): void {
    this.connected += 1;
  }

  sample(): BusySample {
    const now = this.clock();
    return {
      busyMs: this.closedMs + (this.open > 0 ? now - this.since : 0),
      requests: this.began,
      connections: this.connected,
      clockMs: now,
      serving: this.open,
      idleSinceMs: this.open > 0 ? null : this.lastEnd,
    };
  }
}
