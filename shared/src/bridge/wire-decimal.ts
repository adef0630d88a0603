// Numbers a caller sends into the books: money amounts, quantities and rates. JSON numbers reach us as
// IEEE doubles, which carry any decimal of up to 15 significant digits exactly (DBL_DIG) but not more:
// 90071992547409.93 arrives as 90071992547409.9375 and would be booked as …409.94. So a number is taken
// only when it is exactly a decimal of few enough digits that the double stands for that decimal alone,
// and the renderer writes that decimal back digit for digit; anything else is refused in words.
import { z } from 'zod';

/** Significant digits a double always carries exactly (DBL_DIG). */
export const MAX_EXACT_DIGITS = 15;

/** Decimal places of an amount: paise. */
export const AMOUNT_PLACES = 2;

/**
 * Amounts stay below 10^13 (ten lakh crore): 13 integer digits plus 2 decimals is the 15 digits a double
 * always carries, so every amount below it is exact and renders as written. A fixed bound rather than a
 * digit count, because a bound on money is easy to state, document and check against.
 */
const AMOUNT_INTEGER_DIGITS = MAX_EXACT_DIGITS - AMOUNT_PLACES;
export const AMOUNT_LIMIT = 10 ** AMOUNT_INTEGER_DIGITS;

/**
 * An amount in whole paise, to add and compare exactly: integers add exactly, while adding the doubles
 * of 0.01 a hundred times to a large amount drifts by paise (0.1 + 0.2 must come to 0.3).
 */
export function paiseOf(amount: number): number {
  return Math.round(amount * 100);
}

/** Decimal places of a quantity or a rate: what the books' XML has always been sent. */
export const MEASURE_PLACES = 6;

const DECIMAL_TEXT = /^\s*(-?)(\d+)(?:\.(\d+))?\s*$/;

/** A decimal split into the digits that count: integer part without leading zeros, fraction without trailing ones. */
interface DecimalDigits {
  negative: boolean;
  integer: string;
  fraction: string;
}

function digitsOfText(text: string): DecimalDigits | undefined {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  return {
    negative: match[1] === '-',
    integer: (match[2] ?? '').replace(/^0+/, ''),
    fraction: (match[3] ?? '').replace(/0+$/, ''),
  };
}

/**
 * The decimal a double stands for, as plain text: the shortest digits that read back as the same double
 * (Number#toString), so `0.07` is "0.07" and `0.1 + 0.2` is "0.30000000000000004". Undefined where
 * JavaScript writes an exponent (below 1e-6, from 1e21) or for NaN and infinities.
 */
export function plainDecimalText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  return /e/i.test(text) ? undefined : text;
}

function digitsOfNumber(value: number): DecimalDigits | undefined {
  const text = plainDecimalText(value);
  if (text !== undefined) return digitsOfText(text);
  // JavaScript writes an exponent below 1e-6 (7 places or more) and from 1e21 (22 digits or more):
  // the least such a number has, which is already more than any rule allows.
  const tiny = Math.abs(value) < 1;
  return { negative: value < 0, integer: tiny ? '' : '1'.padEnd(22, '0'), fraction: tiny ? '1'.padStart(7, '0') : '' };
}

interface DecimalRule {
  /** Most decimal places. */
  places: number;
  /** Most integer digits, with the bound it makes for messages; without one, the 15-digit rule alone. */
  limit?: { integerDigits: number; text: string };
  sign: 'positive' | 'non-negative' | 'any';
  signMessage: string;
}

/** The first thing wrong with a value under a rule, as a message; undefined when it is exact and allowed. */
function problemOf(value: number | string, rule: DecimalRule): string | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return 'must be a finite number';
  const shown = typeof value === 'string' ? value.trim() : String(value);
  const digits = typeof value === 'string' ? digitsOfText(value) : digitsOfNumber(value);
  if (digits === undefined) return 'must be a number';
  const zero = digits.integer === '' && digits.fraction === '';
  if ((digits.negative && !zero && rule.sign !== 'any') || (rule.sign === 'positive' && zero)) return rule.signMessage;
  if (rule.limit !== undefined && digits.integer.length > rule.limit.integerDigits) {
    return `must be less than ${rule.limit.text}: larger amounts cannot be carried exactly`;
  }
  if (digits.fraction.length > rule.places) {
    return `must have at most ${rule.places} decimal places (read as ${shown})`;
  }
  if (digits.integer.length + digits.fraction.length > MAX_EXACT_DIGITS) {
    return `must have at most ${MAX_EXACT_DIGITS} digits in all, integer part and decimals (read as ${shown}): longer numbers cannot be carried exactly`;
  }
  return undefined;
}

/**
 * A number under a rule, also accepted as a decimal string ("118.00"): pulled vouchers carry amounts as
 * the books' exact text, and the contract promises they can be pushed back unchanged. A string is judged
 * by the digits written; a JSON number by the decimal its double stands for. (The relay's body parser
 * hands on a JSON number a double does not carry digit for digit as its text, so those digits are judged
 * too: relay/src/http/exact-json-body.ts.)
 */
function exactDecimal(rule: DecimalRule) {
  return z
    .union([z.number({ error: 'must be a number' }), z.string().regex(DECIMAL_TEXT, 'must be a number')], { error: 'must be a number' })
    .transform((value, ctx) => {
      const problem = problemOf(value, rule);
      if (problem !== undefined) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      const number = typeof value === 'number' ? value : Number(value);
      return number === 0 ? 0 : number; // -0 reads as 0
    });
}

const AMOUNT_BOUND = { integerDigits: AMOUNT_INTEGER_DIGITS, text: '10,000,000,000,000 (ten lakh crore)' };

/** A money amount: the size only (the side says Dr or Cr), whole paise, below AMOUNT_LIMIT. */
export const Amount = exactDecimal({
  places: AMOUNT_PLACES,
  limit: AMOUNT_BOUND,
  sign: 'non-negative',
  signMessage: 'must not be negative: give the size of the amount and say the side with is_debit',
}).describe(`A non-negative amount with at most ${AMOUNT_PLACES} decimal places, less than 10,000,000,000,000`);

/** A balance with its side in the sign (a master's opening balance): whole paise, below AMOUNT_LIMIT either way. */
export const SignedAmount = exactDecimal({
  places: AMOUNT_PLACES,
  limit: AMOUNT_BOUND,
  sign: 'any',
  signMessage: '',
});

/** A quantity of goods: greater than 0, at most 6 decimal places and 15 digits in all. */
export const Quantity = exactDecimal({
  places: MEASURE_PLACES,
  sign: 'positive',
  signMessage: 'must be greater than 0',
}).describe(`Greater than 0, at most ${MEASURE_PLACES} decimal places and ${MAX_EXACT_DIGITS} digits in all`);

/** A price per unit: not negative, at most 6 decimal places and 15 digits in all. */
export const Rate = exactDecimal({
  places: MEASURE_PLACES,
  sign: 'non-negative',
  signMessage: 'must not be negative',
}).describe(`Not negative, at most ${MEASURE_PLACES} decimal places and ${MAX_EXACT_DIGITS} digits in all`);
