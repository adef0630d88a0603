// TallyPrime's text formats, both ways: YYYYMMDD and d-Mmm-yyyy dates, day numbers (JD) as used in
// VCHKEY, signed amounts (debit negative), quantities ` 10 Nos`, rates `100.00/Nos`, Yes/No logicals,
// the `&#4; ` marker on system values, and how TallyPrime matches master names.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** U+0004 + space: TallyPrime's marker before system values (`&#4; Primary` on the wire). */
export const SYSTEM_MARK = '\u0004 ';
export const PRIMARY = `${SYSTEM_MARK}Primary`;
export const NOT_APPLICABLE = `${SYSTEM_MARK}Not Applicable`;

export function stripSystemMark(value: string): string {
  return value.startsWith('\u0004') ? value.slice(1).trimStart() : value;
}

/** Parses `20240401`, `1-Apr-2024`, `01-Apr-24` or `01/04/2024` into `YYYYMMDD`; undefined if not a date. */
export function parseTallyDate(input: string | undefined): string | undefined {
  if (input === undefined) return undefined;
  const value = input.trim();
  let y: number;
  let m: number;
  let d: number;
  let match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (match) {
    [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else if ((match = /^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})$/.exec(value))) {
    d = Number(match[1]);
    m = MONTHS.findIndex((name) => name.toLowerCase() === match![2]!.toLowerCase()) + 1;
    y = Number(match[3]);
    if (y < 100) y += 2000;
  } else if ((match = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(value))) {
    [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else {
    return undefined;
  }
  if (m < 1 || m > 12 || d < 1) return undefined;
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`;
}

/** `20240401` → `1-Apr-2024` (the form TallyPrime prints in messages and report dates). */
export function formatLongDate(yyyymmdd: string): string {
  const m = Number(yyyymmdd.slice(4, 6));
  return `${Number(yyyymmdd.slice(6, 8))}-${MONTHS[m - 1]}-${yyyymmdd.slice(0, 4)}`;
}

/** TallyPrime's day number: 1-Jan-1900 = 1 (7-Jul-2026 = 46209, visible in VCHKEYs). */
export function dayNumber(yyyymmdd: string): number {
  const t = Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)));
  return Math.round((t - Date.UTC(1900, 0, 1)) / 86_400_000) + 1;
}

export function hex8(value: number): string {
  return value.toString(16).padStart(8, '0');
}

/** Amounts are kept in paise (integers) so totals never drift. */
export function parseAmount(input: string | undefined): number | undefined {
  if (input === undefined) return undefined;
  let value = input.trim();
  if (value === '') return undefined;
  // Forex form `$20 @ ₹ 75/$ = ₹ 1500`: the part after `=` is the base-currency amount.
  if (value.includes('=')) value = value.slice(value.lastIndexOf('=') + 1);
  let negative = false;
  if (value.startsWith('(-)')) {
    negative = true;
    value = value.slice(3);
  }
  value = value.replace(/[^0-9.+-]/g, '');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) return undefined;
  const paise = Math.round(Number(value) * 100);
  return negative ? -paise : paise;
}

export function formatAmount(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** ` 10 Nos` → { quantity: 10, unit: 'Nos' }. */
export function parseQuantity(input: string | undefined): { quantity: number; unit: string } | undefined {
  if (input === undefined) return undefined;
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*(.*)$/.exec(input);
  if (!match) return undefined;
  return { quantity: Number(match[1]), unit: (match[2] ?? '').trim() };
}

export function formatQuantity(quantity: number, unit: string): string {
  const text = Number.isInteger(quantity) ? String(quantity) : quantity.toFixed(2);
  return unit ? ` ${text} ${unit}` : ` ${text}`;
}

/** `100.00/Nos` → { rate: 100, unit: 'Nos' }. */
export function parseRate(input: string | undefined): { rate: number; unit: string } | undefined {
  if (input === undefined) return undefined;
  const value = input.includes('=') ? input.slice(input.lastIndexOf('=') + 1) : input;
  const match = /^\s*[^\d-]*(-?\d+(?:\.\d+)?)\s*\/\s*(.*)$/.exec(value);
  if (!match) return undefined;
  return { rate: Number(match[1]), unit: (match[2] ?? '').trim() };
}

export function formatRate(rate: number, unit: string): string {
  return `${rate.toFixed(2)}/${unit}`;
}

export function parseLogical(input: string | undefined): boolean | undefined {
  if (input === undefined) return undefined;
  const value = stripSystemMark(input).trim().toLowerCase();
  if (value === 'yes' || value === 'true' || value === '1') return true;
  if (value === 'no' || value === 'false' || value === '0') return false;
  return undefined;
}

export function yesNo(value: boolean): string {
  return value ? 'Yes' : 'No';
}

/** Numbers are printed with a leading space (`<ALTERID TYPE="Number"> 23</ALTERID>`). */
export function formatNumber(value: number): string {
  return value < 0 ? String(value) : ` ${value}`;
}

/**
 * How TallyPrime matches a name sent on import to a master (bridge TALLY_PROTOCOL_REFERENCE §9.4b/§9.4d,
 * licensed 7.1 Silver): case-insensitive, leading and trailing spaces ignored, a run of spaces matches
 * one, hyphen, slash and space interchangeable; otherwise exact (`&` is not `and`, an en dash or an
 * underscore is not a space, NFD is not NFC).
 */
export function nameKey(name: string): string {
  return stripSystemMark(name).replace(/[-/]/g, ' ').replace(/ {2,}/g, ' ').trim().toLowerCase();
}
