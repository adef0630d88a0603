// A budget of bytes shared by the work that holds attachments in memory: a request body with
// attachments waits for room before it is read, and the dispatch worker waits for room before it
// loads a message's attachments. So memory held for attachments stays near the budget however many
// large messages arrive or are due at once (`npm run bench -- attachments`). One holder larger than
// the whole budget still runs, alone, rather than waiting for ever.

type Waiter = Readonly<{ bytes: number; grant: () => void }>;

export class ByteBudget {
  private used = 0;
  private readonly waiting: Waiter[] = [];

  constructor(readonly capacity: number) {}

  /** Waits until `bytes` fit, takes them, and returns the function that gives them back (once). */
  async take(bytes: number): Promise<() => void> {
    const amount = Math.min(Math.max(0, bytes), this.capacity);
    if (this.waiting.length === 0 && this.used + amount <= this.capacity) this.used += amount;
    else await new Promise<void>((resolve) => this.waiting.push({ bytes: amount, grant: resolve }));
    let returned = false;
    return () => {
      if (returned) return;
      returned = true;
      this.used -= amount;
      this.grantWaiting();
    };
  }

  /** Bytes taken now (for tests and the bench). */
  get inUse(): number {
    return this.used;
  }

  /** First come, first served: a large waiter is not overtaken by small ones forever. */
  private grantWaiting(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.bytes <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.grant();
    }
  }
}
