// Fault injection for tests and demos, set through the control API: added latency, a stalled request
// (as behind a TallyPrime modal dialog) until cleared, a connection dropped after an import is
// applied — and optionally the books hanging from then on, so nothing can ask them again until the
// fault is cleared — and a truncated export.

export const FAULT_KINDS = ['stall-next', 'drop-after-import', 'hang-after-import', 'truncate-export'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export class Faults {
  latencyMs = 0;
  private pending = new Set<FaultKind>();
  private release: (() => void) | undefined;
  private stalled: Promise<void> | undefined;

  arm(kind: FaultKind): void {
    this.pending.add(kind);
  }

  /** Takes a one-shot fault if armed. */
  take(kind: FaultKind): boolean {
    return this.pending.delete(kind);
  }

  armed(): FaultKind[] {
    return [...this.pending];
  }

  /** Every request from now on is held (the queue with it) until `clear()`. */
  hang(): void {
    void this.stall();
  }

  /** A stall holds the request (and so the whole queue) until `clear()`. */
  stall(): Promise<void> {
    if (!this.stalled) {
      this.stalled = new Promise<void>((resolve) => {
        this.release = resolve;
      });
    }
    return this.stalled;
  }

  isStalled(): boolean {
    return this.stalled !== undefined;
  }

  clear(): void {
    this.pending.clear();
    this.release?.();
    this.release = undefined;
    this.stalled = undefined;
  }
}
