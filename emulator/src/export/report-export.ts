// Data exports of built-in reports: `Day Book` (vouchers of the period in import-compatible shape, one
// TALLYMESSAGE each, then the company's REMOTECMPINFO), `Voucher Register` (the same, headers only: live
// TallyPrime returns no ledger entries there — MarketingBNG/Tally-MCP known-limitations.md),
// `List of Accounts` (masters; ACCOUNTTYPE picks accounting, inventory or all masters), and the flattened
// reports: Trial Balance (alias Group Summary), Balance Sheet, Profit and Loss, Bills Receivable/Payable,
// Ledger Vouchers. Other report names: `Could not find Report '<id>'!`; inline REPORT definitions are
// TDL the emulator does not support.
import type { BooksStore } from '../state/books-store.js';
import type { CompanyBooks } from '../state/company-books.js';
import type { MasterType } from '../state/records.js';
import { messages } from '../rules/messages.js';
import { nameKey } from '../tally-format.js';
import { attr, children, node, path, textOf, type XNode } from '../xml/xml-tree.js';
import { failureEnvelope, successEnvelope, tallyMessage } from './envelope.js';
import { ExportContext } from './export-context.js';
import { masterObject } from './export-object.js';
import { renderWhole } from './fetch-render.js';
import { voucherObject } from './export-object.js';
import { billsReport, ledgerVouchers } from './outstanding-reports.js';
import { balanceSheet, profitAndLoss, trialBalance } from './statement-reports.js';

/** Flattened reports: a bare <ENVELOPE> of rows (see flat-report.ts). */
const FLAT_REPORTS: Record<string, (ctx: ExportContext, books: CompanyBooks) => string> = {
  'trial balance': trialBalance,
  // Byte-identical to Trial Balance on a live TallyPrime (MarketingBNG/Tally-MCP report-id-verification.md).
  'group summary': trialBalance,
  'balance sheet': balanceSheet,
  'profit and loss': profitAndLoss,
  'bills receivable': (ctx, books) => billsReport(ctx, books, 'receivable'),
  'bills payable': (ctx, books) => billsReport(ctx, books, 'payable'),
  'ledger vouchers': ledgerVouchers,
};
/** Entry lists the Voucher Register leaves out. */
const REGISTER_OMITS = new Set(['ALLLEDGERENTRIES.LIST', 'LEDGERENTRIES.LIST', 'ALLINVENTORYENTRIES.LIST', 'INVENTORYENTRIES.LIST']);

const ACCOUNTING: MasterType[] = ['GROUP', 'LEDGER', 'CURRENCY', 'VOUCHERTYPE'];
const INVENTORY: MasterType[] = ['UNIT', 'GODOWN', 'STOCKGROUP', 'STOCKCATEGORY', 'STOCKITEM'];

function accountTypes(value: string | undefined): MasterType[] {
  switch (nameKey(value ?? '')) {
    case 'all inventory masters':
      return INVENTORY;
    case 'all masters':
      return [...ACCOUNTING, ...INVENTORY];
    case 'groups':
      return ['GROUP'];
    case 'ledgers':
      return ['LEDGER'];
    default:
      return ACCOUNTING;
  }
}

function companyInfo(books: CompanyBooks): XNode {
  return tallyMessage([
    node('COMPANY', '', {}, [
      node('REMOTECMPINFO.LIST', '', { MERGE: 'Yes' }, [
        node('NAME', books.record.guid),
        node('REMOTECMPNAME', books.record.name),
        node('REMOTECMPSTATE', books.record.stateName),
      ]),
    ]),
  ]);
}

function dayBook(ctx: ExportContext, books: CompanyBooks, headersOnly: boolean): XNode[] {
  const typeFilter = textOf(ctx.staticVariables, 'VOUCHERTYPENAME');
  return [...books.vouchers.values()]
    .filter((v) => v.date >= ctx.from && v.date <= ctx.to)
    .filter((v) => !typeFilter || nameKey(v.typeName) === nameKey(typeFilter))
    .sort((a, b) => (a.date === b.date ? a.masterId - b.masterId : a.date < b.date ? -1 : 1))
    .map((voucher) => {
      const rendered = renderWhole(voucherObject(voucher));
      const { REMOTEID, VCHKEY, VCHTYPE, ...rest } = rendered.attrs;
      rendered.attrs = { REMOTEID: REMOTEID ?? '', VCHKEY: VCHKEY ?? '', VCHTYPE: VCHTYPE ?? '', ACTION: 'Create', ...rest };
      if (headersOnly) rendered.children = rendered.children.filter((c) => !REGISTER_OMITS.has(c.tag.toUpperCase()));
      return tallyMessage([rendered]);
    });
}

function listOfAccounts(ctx: ExportContext, books: CompanyBooks): XNode[] {
  const out: XNode[] = [];
  for (const type of accountTypes(textOf(ctx.staticVariables, 'ACCOUNTTYPE'))) {
    const masters = books.mastersOf(type).sort((a, b) => a.masterId - b.masterId);
    for (const master of masters) out.push(tallyMessage([renderWhole(masterObject(ctx, books, master))]));
  }
  return out;
}

export function handleDataExport(store: BooksStore, envelope: XNode): string {
  const id = (textOf(path(envelope, 'HEADER'), 'ID') ?? '').trim();
  const desc = path(envelope, 'BODY', 'DESC');
  const report = nameKey(id);
  const known = ['day book', 'voucher register', 'list of accounts'].includes(report) || FLAT_REPORTS[report] !== undefined;
  if (!known) {
    const inline = children(path(desc, 'TDL', 'TDLMESSAGE'), 'REPORT').some((r) => nameKey(attr(r, 'NAME') ?? '') === report);
    return failureEnvelope(inline ? messages.tdlError(`report '${id}' defined inline is not supported`) : messages.couldNotFindReport(id));
  }
  const staticVariables = path(desc, 'STATICVARIABLES');
  const companyName = textOf(staticVariables, 'SVCURRENTCOMPANY');
  const resolution = store.resolve(companyName);
  if (resolution.kind !== 'found') {
    return failureEnvelope(resolution.kind === 'unknown' ? messages.couldNotSetCompany(resolution.name) : messages.noCompanyOpen());
  }
  const ctx = new ExportContext(resolution.books, staticVariables, companyName);
  const flatReport = FLAT_REPORTS[report];
  if (flatReport) return flatReport(ctx, resolution.books);
  const data = report === 'list of accounts' ? listOfAccounts(ctx, resolution.books) : dayBook(ctx, resolution.books, report === 'voucher register');
  return successEnvelope([...data, companyInfo(resolution.books)]);
}
