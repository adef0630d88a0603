// What an integrator can show its end user, as it stands, when a transaction failed or waits, or a
// company's connection needs attention: `user_message` (one or two sentences in TallyPrime's words,
// naming the ledger, the voucher type, the closed company or the PC to look at) and `fix_by` (who can
// put it right: the shop owner at the books, the integrator's program, or support). The technical
// `message` and `error_message` beside them stay for the integrator's logs.
import { z } from 'zod';

export const FIX_BY = ['end_user', 'integrator', 'support'] as const;
export const FixBy = z
  .enum(FIX_BY)
  .describe('Who can fix it: end_user (at TallyPrime or the PC it runs on), integrator (the program that sent the entry), support (the relay\'s operators)');
export type FixBy = z.infer<typeof FixBy>;

export type EndUserGuidance = Readonly<{ user_message: string; fix_by: FixBy }>;

/** The connection states a waiting transaction and a company's health share. */
export const CONNECTION_PROBLEMS = ['company_disconnected', 'connector_offline', 'books_not_running', 'company_not_open'] as const;
export type ConnectionProblem = (typeof CONNECTION_PROBLEMS)[number];

export function isConnectionProblem(code: string): code is ConnectionProblem {
  return (CONNECTION_PROBLEMS as readonly string[]).includes(code);
}

export type ConnectionFacts = Readonly<{
  /** The Windows machine name the connector reported, when there is one. */
  machine?: string | null;
  /** The company's name in TallyPrime, when the pairing knows it. */
  books_company_name?: string | null;
}>;

function quoted(value: string): string {
  return `"${value.length > 120 ? `${value.slice(0, 119)}…` : value}"`;
}

function thePc(machine: string | null | undefined): string {
  return machine ? `the PC ${quoted(machine)}` : 'the PC where TallyPrime and the Ledgerwire connector run';
}

/** Why the company's books cannot be reached now, for its end user. */
export function connectionGuidance(problem: ConnectionProblem, facts: ConnectionFacts = {}): EndUserGuidance {
  const pc = thePc(facts.machine);
  const company = facts.books_company_name ? `the company ${quoted(facts.books_company_name)}` : 'your company';
  switch (problem) {
    case 'company_disconnected':
      return {
        user_message: 'Your books are not connected yet: install the Ledgerwire connector on the PC where TallyPrime runs, sign it in, and choose your company in it.',
        fix_by: 'end_user',
      };
    case 'connector_offline':
      return {
        user_message: `The Ledgerwire connector on ${pc} is not connected: switch that PC on, make sure the connector is running and the PC is online. Waiting entries then go into TallyPrime by themselves.`,
        fix_by: 'end_user',
      };
    case 'books_not_running':
      return {
        user_message: `TallyPrime is not answering on ${pc}: start TallyPrime there, and check that its XML port is on (F1 > Settings > Connectivity: TallyPrime acting as Server or Both, port 9000).`,
        fix_by: 'end_user',
      };
    case 'company_not_open':
      return {
        user_message: `TallyPrime is running on ${pc} but ${company} is not open in it: open that company in TallyPrime (Select Company) and keep it open.`,
        fix_by: 'end_user',
      };
  }
}

/** A transaction that waits without anything to fix: it is on its way. */
export function onTheWayGuidance(jobsAhead: number | undefined): EndUserGuidance {
  const ahead = jobsAhead === undefined || jobsAhead === 0
    ? 'This entry is going into TallyPrime now.'
    : `${jobsAhead} earlier ${jobsAhead === 1 ? 'entry goes' : 'entries go'} into TallyPrime first; this one follows by itself.`;
  return { user_message: `${ahead} Nothing needs doing; if it stays like this for long, contact support.`, fix_by: 'support' };
}

export type FailedJobFacts = Readonly<{
  error_code: string;
  error_message: string | null;
  /** The stored summary of the write: voucher_type, voucher_number, name (masters), … */
  payload: Readonly<Record<string, unknown>>;
}>;

function textField(payload: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `The ledger "Cash" does not exist …` → ['ledger', 'Cash'] (the books' texts as import-errors.ts words them). */
function namedIn(message: string | null, pattern: RegExp): RegExpExecArray | undefined {
  return message === null ? undefined : (pattern.exec(message) ?? undefined);
}

/** The sentence and who can act on it for a failed transaction's error_code (codes of bridge/errors.ts). */
export function failedJobGuidance(facts: FailedJobFacts): EndUserGuidance {
  const { error_message: message, payload } = facts;
  const voucherType = textField(payload, 'voucher_type');
  const again = 'then send the entry again.';
  switch (facts.error_code) {
    case 'MASTER_NOT_FOUND': {
      // The connector's classified text, else the books' own LINEERROR ("Ledger 'X' does not exist!").
      const found = namedIn(message, /^The ([a-z ]+) "(.*)" does not exist/) ?? namedIn(message, /^([A-Za-z ]+?) '(.*)' does not exist/);
      const what = found ? `${(found[1] ?? '').toLowerCase()} ${quoted(found[2] ?? '')}` : 'ledger or stock item this entry names';
      return {
        user_message: `TallyPrime has no ${what} in this company. Create it in TallyPrime with exactly that name (or correct the name where the entry was made), ${again}`,
        fix_by: 'end_user',
      };
    }
    case 'VOUCHER_TYPE_NOT_FOUND': {
      const name = namedIn(message, /voucher ?type ["'](.*)["'] does not exist/i)?.[1] ?? voucherType;
      return {
        user_message: `TallyPrime has no voucher type ${name ? quoted(name) : 'of that name'} in this company. Create it in TallyPrime, or choose a voucher type the company has where the entry was made, ${again}`,
        fix_by: 'end_user',
      };
    }
    case 'VOUCHER_TYPE_MISMATCH':
      return {
        user_message: `The voucher type ${voucherType ? quoted(voucherType) : 'chosen'} is of another kind in TallyPrime (a Payment type on a receipt, say), so nothing was entered. Choose a voucher type of the right kind, ${again}`,
        fix_by: 'integrator',
      };
    case 'UNBALANCED_ENTRIES':
      return { user_message: 'TallyPrime refused the entry because its debit and credit totals differ. The amounts must be corrected where the entry was made.', fix_by: 'integrator' };
    case 'BILL_NOT_OUTSTANDING': {
      const bill = namedIn(message, /^The bill "(.*?)" is not outstanding/)?.[1];
      return {
        user_message: `The bill ${bill ? quoted(bill) : 'this entry settles'} is not pending in TallyPrime for this party: it may be settled already or belong to another party. Check the party's outstanding bills in TallyPrime and settle a pending one.`,
        fix_by: 'integrator',
      };
    }
    case 'GST_VALIDATION_FAILED':
      return {
        user_message: 'TallyPrime refused the GST details of this entry (GSTIN, place of supply or registration type). Check that GST is enabled for the company in TallyPrime and that the party\'s GST details are right.',
        fix_by: 'integrator',
      };
    case 'DUPLICATE_VOUCHER_NUMBER':
      return {
        user_message: `TallyPrime already has a voucher with this number${voucherType ? ` of type ${quoted(voucherType)}` : ''}, and that voucher type does not allow duplicate numbers. The entry needs a new number.`,
        fix_by: 'integrator',
      };
    case 'MASTER_ALREADY_EXISTS': {
      const name = textField(payload, 'name');
      return { user_message: `TallyPrime already has a master named ${name ? quoted(name) : 'like this'} in this company, so it was not created again.`, fix_by: 'integrator' };
    }
    case 'COMPANY_NOT_OPEN': {
      const company = namedIn(message, /^The company "(.*)" is not open/)?.[1];
      return { user_message: `${connectionGuidance('company_not_open', { books_company_name: company ?? null }).user_message} Then send the entry again.`, fix_by: 'end_user' };
    }
    case 'BOOKS_NOT_RUNNING':
      return { user_message: `${connectionGuidance('books_not_running').user_message} Then send the entry again.`, fix_by: 'end_user' };
    case 'CONNECTOR_OFFLINE':
      return {
        user_message: 'The Ledgerwire connector stayed offline, so this entry never reached TallyPrime. Switch on the PC where TallyPrime and the connector run, make sure the connector is running and online, then send the entry again.',
        fix_by: 'end_user',
      };
    case 'VOUCHER_NOT_FOUND':
      return {
        user_message: 'The voucher is no longer in TallyPrime as it was sent: it was deleted there, or its date or voucher type was changed. Nothing was changed.',
        fix_by: 'integrator',
      };
    default:
      return {
        user_message: `TallyPrime did not accept this entry${message ? `: ${message}` : '.'} If that does not say what to change, contact support with this transaction's id.`,
        fix_by: 'support',
      };
  }
}
