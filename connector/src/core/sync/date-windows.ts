// Date windows for voucher exports. A whole-book read of a large company can take minutes and gigabytes
// in the books, so a big change set is read in date windows of about a window's worth of vouchers each
// (month by month in a book of ordinary density, runs of days in a dense one: the books are known to
// serve ~5,000 a request well, books-xml.md §5.4); a small one (few alterations since the cursor) is
// read in one window, because every window costs a full scan.
export type DateWindow = Readonly<{ from: string; to: string }>;

function parse(compact: string): Date {
  return new Date(Date.UTC(Number(compact.slice(0, 4)), Number(compact.slice(4, 6)) - 1, Number(compact.slice(6, 8))));
}

function format(date: Date): string {
  return `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCDate()).padStart(2, '0')}`;
}

export function nextDay(compact: string): string {
  const date = parse(compact);
  date.setUTCDate(date.getUTCDate() + 1);
  return format(date);
}

export function todayCompact(now: Date = new Date()): string {
  return format(now);
}

function daysBetween(from: string, to: string): number {
  return Math.round((parse(to).getTime() - parse(from).getTime()) / 86_400_000) + 1;
}

function addDays(compact: string, days: number): string {
  return format(new Date(parse(compact).getTime() + days * 86_400_000));
}

function monthEnd(compact: string): string {
  const date = parse(compact);
  return format(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)));
}

/** The longest window: a calendar month (a window never runs past a month's end). */
const MONTH_DAYS = 31;

export type PlannedDays = Readonly<{ from: string; to: string; changes: number; perWindow: number }>;

/**
 * Plans voucher windows one at a time. `first` are read as they are (the whole book in one window, or
 * the days before the books begin); then the days of `span` (if any), in windows sized to hold about
 * `perWindow` vouchers: the first as if the `changes` were spread evenly over the days, every later one
 * by what the window before it held (the books say nothing cheaper about where vouchers fall, and they
 * seldom fall evenly: a young company's early years are thin, its last months dense). A window never
 * runs past a month's end, so a book of ordinary density is read month by month; the next window grows
 * twofold at most, and in a dense book to twice the even spread's at most, so a thin stretch costs few
 * requests and the dense stretch after it no huge answer.
 * The last planned window ends at `openEnd`, catching vouchers dated after the span.
 */
export class VoucherWindowPlan {
  private readonly queued: DateWindow[];
  private start: string;
  private days = MONTH_DAYS;
  /** Twice the even spread's window: how far windows may grow across a thin stretch of a dense book. */
  private readonly mostDays: number = MONTH_DAYS;
  private planned: DateWindow | undefined;

  constructor(
    first: readonly DateWindow[],
    private readonly span: PlannedDays | undefined,
    private readonly openEnd: string,
  ) {
    this.queued = [...first];
    this.start = span?.from ?? '';
    if (span && span.changes > 0 && span.perWindow > 0) {
      this.days = Math.min(MONTH_DAYS, Math.max(1, Math.floor((span.perWindow * daysBetween(span.from, span.to)) / span.changes)));
      this.mostDays = Math.min(MONTH_DAYS, 2 * this.days);
    }
  }

  /** The next window, or undefined when every one has been read. */
  next(): DateWindow | undefined {
    const queued = this.queued.shift();
    if (queued) return queued;
    const span = this.span;
    if (!span || this.start > span.to) return undefined;
    const end = [addDays(this.start, this.days - 1), monthEnd(this.start), span.to].sort()[0] as string;
    this.planned = { from: this.start, to: end === span.to ? this.openEnd : end };
    this.start = nextDay(end);
    return this.planned;
  }

  /** What a window just read held: the next planned one is sized by that density. */
  held(window: DateWindow, vouchers: number): void {
    const span = this.span;
    if (!span || window !== this.planned) return;
    const days = daysBetween(window.from, window.to === this.openEnd ? span.to : window.to);
    const fitting = vouchers > 0 ? Math.floor((days * span.perWindow) / vouchers) : MONTH_DAYS;
    this.days = Math.min(this.mostDays, 2 * this.days, Math.max(1, fitting));
  }

  /** About how many windows are left, at the present size (for progress). */
  get remaining(): number {
    const span = this.span;
    const planned = !span || this.start > span.to ? 0 : Math.ceil(daysBetween(this.start, span.to) / this.days);
    return this.queued.length + planned;
  }
}
