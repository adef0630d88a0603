// Splits a collection export into its object elements as the text arrives, so a window of thousands of
// vouchers is parsed a few hundred at a time and never held whole. Objects of one tag do not nest
// (a VOUCHER holds no VOUCHER), so an element runs from `<TAG ` to the next `</TAG>`. What comes before
// the first and after the last object (header, STATUS, LINEERRORs) is kept to judge the answer.
export type ObjectGroupConsumer = (elements: string[]) => void | Promise<void>;

export class ObjectStreamSplitter {
  private buffer = '';
  private readonly open: RegExp;
  private readonly close: string;
  private head: string | null = null;
  private pending: string[] = [];
  private seen = 0;

  constructor(
    tag: string,
    private readonly groupSize: number,
    private readonly consume: ObjectGroupConsumer,
  ) {
    this.open = new RegExp(`<${tag}[\\s>]`);
    this.close = `</${tag}>`;
  }

  /** Objects handed over so far. */
  get count(): number {
    return this.seen;
  }

  async push(text: string): Promise<void> {
    this.buffer += text;
    for (;;) {
      const start = this.buffer.search(this.open);
      if (start === -1) break;
      const end = this.buffer.indexOf(this.close, start);
      if (end === -1) break;
      if (this.head === null) this.head = this.buffer.slice(0, start);
      const stop = end + this.close.length;
      this.pending.push(this.buffer.slice(start, stop));
      this.buffer = this.buffer.slice(stop);
      this.seen += 1;
      if (this.pending.length >= this.groupSize) await this.flush();
    }
    // Before the first object, keep everything (it is the header); between objects only whitespace
    // and the closing tags wait here.
  }

  /** Hands over the last objects; returns the answer without its objects (header + tail). */
  async end(): Promise<string> {
    await this.flush();
    const skeleton = (this.head ?? '') + this.buffer;
    this.buffer = '';
    return skeleton;
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const group = this.pending;
    this.pending = [];
    await this.consume(group);
  }
}
