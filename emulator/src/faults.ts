// Fault injection for tests and demos, set through the control API: added latency, a stalled request
// (as behind a TallyPrime modal dialog) until cleared, a connection dropped after an import is
// applied — and optionally the books hanging from then on, so nothing can ask them again until the
// fault is cleared — an import applied whose answer is cut short, and a truncated export (the next
// one, or the next one of a named report or collection: a client's probe would otherwise take the fault
// meant for the export after it).

export const FAULT_KINDS = ['stall-next', 'drop-after-import', 'hang-after-import', 'cut-import-answer', 'truncate-export'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export class Faults {
  latencyMs = 0;
  /** Armed faults, each with the report or collection ID it waits for (undefined: any request). */
  private pending = new Map<FaultKind, string | undefined>();
  private release: (() => void) | undefined;
  private stalled: Promise<void> | undefined;

  /** Arms a one-shot fault; with `id`, only for a request for that report or collection (case aside). */
  arm(kind: FaultKind, id?: string): void {
    this.pending.set(kind, id?.trim().toLowerCase());
  }

  /** Takes a one-shot fault if armed for this request (`id`: the report or collection it asks for). */
  take(kind: FaultKind, id?: string): boolean {
    if (!this.pending.has(kind)) return false;
    const wanted = this.pending.get(kind);
    if (wanted !== undefined && wanted !== id?.trim().toLowerCase()) return false;
    return this.pending.delete(kind);
  }

  armed(): FaultKind[] {
    return [...this.pending.keys()];
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
