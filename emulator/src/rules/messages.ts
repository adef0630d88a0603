// Every text the emulator answers with, in one place. Texts marked `confirmed` were seen in TallyPrime
// captures (see shared/reference/books-xml.md §2.3); the others are best guesses, listed in the README.
import { formatAmount } from '../tally-format.js';

export const SERVER_RUNNING = 'TallyPrime Server is Running'; // confirmed
export const UNKNOWN_REQUEST = 'Unknown Request, cannot be processed'; // confirmed

export const messages = {
  couldNotSetCompany: (name: string) => `Could not set 'SVCurrentCompany' to '${name}'`, // confirmed
  noCompanyOpen: () => 'No Company is Open', // guess
  missingMaster: (label: string, name: string) => `${label} '${name}' does not exist!`, // confirmed for Ledger
  totalsDoNotMatch: (dr: number, cr: number) =>
    `Voucher totals do not match! Dr. ${formatAmount(dr)} Cr ${formatAmount(cr)} Diff: ${formatAmount(Math.abs(dr - cr))}`, // text confirmed, number format a guess
  dateMissing: (typeName: string, number: string) => `Voucher date is missing for: '${typeName}' voucher ${number}.`, // confirmed
  dateBelowBooks: (booksFrom: string) => `Date cannot be below the current period (${booksFrom})`, // confirmed wording, trigger a guess
  billNotOutstanding: (bill: string, ledger: string) => `Bill '${bill}' is not pending for Ledger '${ledger}'!`, // guess
  gstNotEnabled: () => 'GST is not enabled for this Company!', // guess
  invoiceNeedsInventory: (typeName: string, number: string) =>
    `No Inventory Entries in Invoice for: '${typeName}' voucher ${number}.`, // guess
  seriesMissing: (series: string) => `Voucher Number Series '${series}' does not exist!`, // guess
  voucherDoesNotExist: () => 'Voucher does not exist!', // confirmed
  cannotDeleteUnnamed: (tag = 'VOUCHER') => `Cannot delete unnamed object: ${tag}!`, // confirmed for VOUCHER and UNIT
  emptyObject: (tag: string) => `Cannot process 'empty' object: ${tag}!`, // confirmed
  itemDoesNotExist: () => 'Item does not exist!', // confirmed (delete of a missing master)
  alreadyExists: (label: string, name: string) => `${label} '${name}' already exists!`, // seen in fixtures only
  cannotBeDeleted: () => 'Cannot be deleted!', // confirmed (a used ledger or stock item; also a voucher Delete with a YYYYMMDD DATE attribute)
  cannotBeCancelled: () => 'Cannot be cancelled!', // confirmed (master Cancel)
  couldNotFindReport: (id: string) => `Could not find Report '${id}'!`, // confirmed
  couldNotFindCollection: (id: string) => `Could not find Collection '${id}'!`, // guess
  incorrectObjectType: () => 'Incorrect Object Type!', // confirmed (as a modal dialog)
  tdlError: (detail: string) => `Error in TDL: ${detail}`, // guess (TallyPrime shows a modal dialog)
  objectNotFound: (subtype: string, name: string) => `Could not find ${subtype} '${name}'!`, // guess
};
