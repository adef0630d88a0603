// Text rules shared by every document that ends up in the books' XML: names are customer data and pass
// verbatim (never trimmed or case-folded, contract value rule 10), but they must be representable in
// XML 1.0, which cannot carry most control characters at all.
import { z } from 'zod';

// Characters XML 1.0 cannot carry, even escaped (tab, LF and CR are allowed).
// eslint-disable-next-line no-control-regex
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasXmlIllegalCharacter(value: string): boolean {
  return XML_ILLEGAL.test(value);
}

/** Free text (narration, references): any length up to `max`, XML-representable. */
export function xmlText(max: number) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !hasXmlIllegalCharacter(value), {
      message: 'contains a control character the books cannot store; remove it',
    });
}

/**
 * The name of a master in the books. Kept exactly as sent: the books match names exactly, including
 * case and trailing spaces, so the service never "cleans" them.
 */
export const MasterName = z
  .string({ error: 'must be a string: the exact name of the master in the books' })
  .min(1, 'must not be empty: give the exact name of the master in the books')
  .max(200, 'must be at most 200 characters')
  .refine((value) => value.trim().length > 0, { message: 'must not be blank (only spaces)' })
  .refine((value) => !hasXmlIllegalCharacter(value), {
    message: 'contains a control character the books cannot store; remove it',
  });

/** ISO calendar date `YYYY-MM-DD` that exists (2025-02-29 does not). */
export const IsoDate = z
  .string({ error: 'must be a date string YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be an ISO date YYYY-MM-DD, e.g. 2026-04-01')
  .refine(isRealIsoDate, { message: 'is not a real calendar date' });

function isRealIsoDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  if (y < 1900 || y > 2999) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** `Yes`/`No` as the books and the contract spell booleans (case-insensitive on input, JSON booleans allowed). */
export const YesNo = z
  .union([z.boolean(), z.string()])
  .transform((value, ctx): 'Yes' | 'No' => {
    if (typeof value === 'boolean') return value ? 'Yes' : 'No';
    const lower = value.toLowerCase();
    if (lower === 'yes') return 'Yes';
    if (lower === 'no') return 'No';
    ctx.addIssue({ code: 'custom', message: 'must be "Yes" or "No"' });
    return z.NEVER;
  });
