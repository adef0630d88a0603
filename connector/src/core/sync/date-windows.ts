// Date windows for voucher exports. A whole-book read of a large company can take minutes and gigabytes
// in the books, so a big change set is read month by month (books-xml.md §5.4); a small one (few
// alterations since the cursor) is read in one window, because every window costs a full scan.
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

/** Calendar-month windows covering from..to (inclusive, YYYYMMDD). */
export function monthWindows(from: string, to: string): DateWindow[] {
  const windows: DateWindow[] = [];
  let start = from;
  while (start <= to) {
    const date = parse(start);
    const monthEnd = format(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)));
    const end = monthEnd < to ? monthEnd : to;
    windows.push({ from: start, to: end });
    start = nextDay(end);
  }
  return windows;
}

export function todayCompact(now: Date = new Date()): string {
  return format(now);
}
