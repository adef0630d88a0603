// How long the books have been busy: the union of the spans from a request being read (its headers,
// the first bytes the server sees) to its answer's last byte handed to the connection, so two requests
// that overlap (one queued behind another) count their common time once. The control API reports it
// (`GET /busy`); a client samples it twice and divides the difference by the time between, to learn
// how much of the wall time the books spent working rather than waiting for the next request.
// Garbage collection the books do between two requests (the last import's garbage, collected once its
// answer is out) is their work too, but no request span holds it — and a request that arrives meanwhile
// is read only when the collection ends. Pauses that fall in the idle time between spans are counted
// apart, as collectorMs, so a reader sees both figures and never one dressed as the other.
import { PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';

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
  /** Garbage-collection pauses in the idle time between spans (ms), reported once the collector ends them. */
  collectorMs: number;
}>;

/** Idle gaps kept to match late collector reports against (they arrive soon after the pause). */
const GAPS_KEPT = 16;

export class BusyTime {
  private open = 0;
  private since = 0;
  private closedMs = 0;
  private began = 0;
  private connected = 0;
  private lastEnd: number | null = null;
  /** The last idle gaps, [from, to] on the clock, oldest first. */
  private readonly gaps: [number, number][] = [];
  private collected = 0;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /**
   * Counts the process's garbage-collection pauses that fall between spans (see collector). The clock
   * must be performance.now(), the timeline the collector's entries are on.
   */
  observeCollector(): () => void {
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceEntry[]) this.collector(entry.startTime, entry.duration);
    });
    observer.observe({ entryTypes: ['gc'] });
    return () => observer.disconnect();
  }

  /** A collector pause from `startMs` for `durationMs`: the part of it in an idle gap is added to collectorMs. */
  collector(startMs: number, durationMs: number): void {
    const end = startMs + durationMs;
    const current: [number, number][] = this.open === 0 && this.lastEnd !== null ? [[this.lastEnd, this.clock()]] : [];
    for (const [from, to] of [...this.gaps, ...current]) this.collected += Math.max(0, Math.min(end, to) - Math.max(startMs, from));
  }

  /** A request is read; the returned function ends its span (once, whatever calls it again). */
  begin(): () => void {
    if (this.open === 0) {
      this.since = this.clock();
      if (this.lastEnd !== null) {
        this.gaps.push([this.lastEnd, this.since]);
        if (this.gaps.length > GAPS_KEPT) this.gaps.shift();
      }
    }
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
      collectorMs: this.collected,
    };
  }
}
