// Times, dates and amounts as this browser's person reads them (their locale and time zone), and the
// customer's companies by name. The connector sends facts (ISO times, "1180.50", ids); the words are here.

/** "14:05:12" today, "24 Nov, 14:05" on another day, in the browser's locale and time zone. */
export function localTime(at: string, now: Date = new Date()): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : date.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }) });
}

const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "just now", "3 minutes ago", "yesterday": how long ago, in the browser's language. */
export function timeAgo(at: string, now: Date = new Date()): string {
  const seconds = Math.round((now.getTime() - new Date(at).getTime()) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 45) return 'just now';
  const words = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (seconds >= size || unit === 'minute') return words.format(-Math.max(1, Math.round(seconds / size)), unit);
  }
  return '';
}

/** A voucher date (YYYY-MM-DD, a day in the books, not an instant) as the browser writes a date. */
export function bookDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month || !day) return date;
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** An amount as the books write it ("118000.50") with the browser's digit grouping ("1,18,000.50" in India). */
export function bookAmount(amount: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return amount;
  return value.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A whole number with the browser's grouping ("3,000"). */
export function count(n: number): string {
  return n.toLocaleString();
}
