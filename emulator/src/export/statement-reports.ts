// Trial Balance (and its alias Group Summary), Balance Sheet and Profit and Loss as TallyPrime exports
// them with `TYPE=Data`: flattened sibling rows, amounts signed (debit negative) with two decimals, an
// empty element where a column has nothing. Shapes: MarketingBNG/Tally-MCP tests/fixtures
// (trial-balance.xml, balance-sheet.xml, profit-loss.xml, redacted live TallyPrime 7.x answers). Figures
// are as on SVTODATE (else the end of the loaded period); SVFROMDATE is ignored, revenue counting from the
// start of that financial year (ripu-nuvanta/tally_agent LESSONS.md §2). Rows are primary groups,
// group-level (EXPLODEFLAG is not emulated).
import type { CompanyBooks } from '../state/company-books.js';
import { nameKey } from '../tally-format.js';
import { formatAmount, parseTallyDate } from '../tally-format.js';
import { textOf } from '../xml/xml-tree.js';
import type { ExportContext } from './export-context.js';
import { flat, renderFlatReport, type FlatNode } from './flat-report.js';
import { financialYearStart, ReportFigures } from './report-balances.js';

const BALANCE_SHEET_LIABILITIES = ['Capital Account', 'Loans (Liability)', 'Current Liabilities', 'Branch / Divisions', 'Suspense A/c'];
const BALANCE_SHEET_ASSETS = ['Fixed Assets', 'Investments', 'Current Assets', 'Misc. Expenses (ASSET)'];
const REVENUE_ORDER = ['Sales Accounts', 'Purchase Accounts', 'Direct Incomes', 'Direct Expenses', 'Indirect Incomes', 'Indirect Expenses'];
const TRIAL_BALANCE_ORDER = [
  'Capital Account', 'Loans (Liability)', 'Current Liabilities', 'Fixed Assets', 'Investments', 'Current Assets',
  'Branch / Divisions', 'Suspense A/c', 'Misc. Expenses (ASSET)', ...REVENUE_ORDER,
];
const DIFFERENCE = 'Difference in Opening Balances';
const PROFIT_AND_LOSS_LEDGER = 'Profit & Loss A/c';

const money = (paise: number | undefined): string => (paise === undefined ? '' : formatAmount(paise));
const accountName = (name: string): FlatNode => flat('DSPACCNAME', [flat('DSPDISPNAME', name)]);

function figures(ctx: ExportContext, books: CompanyBooks): ReportFigures {
  const asOn = parseTallyDate(textOf(ctx.staticVariables, 'SVTODATE')) ?? books.record.periodTo;
  ctx.closingAsOf = asOn;
  return new ReportFigures(ctx, books, financialYearStart(books, asOn), asOn);
}

/** Reserved rows in TallyPrime's order, then the company's own primary groups and ledgers, by name. */
function ordered(f: ReportFigures, reserved: string[], include: (isRevenue: boolean) => boolean): string[] {
  const known = new Set(reserved.map(nameKey));
  const own = [...f.rows.values()]
    .filter((row) => !known.has(nameKey(row.name)) && include(row.isRevenue) && row.group !== undefined)
    .map((row) => row.name)
    .sort((a, b) => a.localeCompare(b));
  return [...reserved, ...own];
}

export function trialBalance(ctx: ExportContext, books: CompanyBooks): string {
  const f = figures(ctx, books);
  const rows: FlatNode[] = [];
  const line = (name: string, amount: number) => {
    rows.push(accountName(name));
    rows.push(flat('DSPACCINFO', [
      flat('DSPCLDRAMT', [flat('DSPCLDRAMTA', amount < 0 ? money(amount) : '')]),
      flat('DSPCLCRAMT', [flat('DSPCLCRAMTA', amount >= 0 ? money(amount) : '')]),
    ]));
  };
  for (const name of ordered(f, TRIAL_BALANCE_ORDER, () => true)) {
    const row = f.movedRow(name);
    // The stock-bearing group carries the opening stock, which no ledger holds (tally_agent LESSONS.md §19).
    const stock = nameKey(name) === nameKey('Current Assets') ? f.openingStock : 0;
    if (row || stock !== 0) line(name, (row?.amount ?? 0) + stock);
  }
  const pnl = f.movedRow(PROFIT_AND_LOSS_LEDGER);
  if (pnl) line(PROFIT_AND_LOSS_LEDGER, pnl.amount);
  if (f.openingTotal !== 0) line(DIFFERENCE, -f.openingTotal);
  return renderFlatReport(rows);
}

export function balanceSheet(ctx: ExportContext, books: CompanyBooks): string {
  const f = figures(ctx, books);
  const rows: FlatNode[] = [];
  const line = (name: string, main: number | undefined) => {
    rows.push(flat('BSNAME', [accountName(name)]));
    rows.push(flat('BSAMT', [flat('BSSUBAMT', ''), flat('BSMAINAMT', money(main))]));
  };
  // Liabilities, then assets, each group on its own side with its sign (credit positive); the company's own
  // primary groups follow the liabilities.
  for (const name of ordered(f, BALANCE_SHEET_LIABILITIES, (revenue) => !revenue)) {
    if (BALANCE_SHEET_ASSETS.some((asset) => nameKey(asset) === nameKey(name))) continue;
    const row = f.movedRow(name);
    if (row) line(name, row.amount);
  }
  // Profit & Loss A/c: what earlier years left in it plus this year's net profit.
  line(PROFIT_AND_LOSS_LEDGER, f.amountOf(PROFIT_AND_LOSS_LEDGER) + f.netProfit());
  for (const name of BALANCE_SHEET_ASSETS) {
    const row = f.movedRow(name);
    const stock = nameKey(name) === nameKey('Current Assets') ? f.closingStock : 0;
    if (row || stock !== 0) line(name, (row?.amount ?? 0) + stock);
  }
  if (f.openingTotal !== 0) line(DIFFERENCE, -f.openingTotal);
  return renderFlatReport(rows);
}

export function profitAndLoss(ctx: ExportContext, books: CompanyBooks): string {
  const f = figures(ctx, books);
  const rows: FlatNode[] = [];
  const line = (name: string, sub: number | undefined, main: number | undefined) => {
    rows.push(accountName(name));
    rows.push(flat('PLAMT', [flat('PLSUBAMT', money(sub)), flat('BSMAINAMT', money(main))]));
  };
  const amount = (name: string) => f.movedRow(name)?.amount;
  line('Sales Accounts', undefined, amount('Sales Accounts'));
  line('Direct Incomes', undefined, amount('Direct Incomes'));
  const purchases = amount('Purchase Accounts');
  const direct = amount('Direct Expenses');
  const costOfSales = (purchases ?? 0) + (direct ?? 0) + f.openingStock - f.closingStock;
  line('Cost of Sales :', undefined, costOfSales === 0 ? undefined : costOfSales);
  if (f.openingStock !== 0) line('Opening Stock', f.openingStock, undefined);
  line('Purchase Accounts', purchases, undefined);
  line('Direct Expenses', direct, undefined);
  if (f.closingStock !== 0) line('Closing Stock', -f.closingStock, undefined);
  line('Indirect Incomes', undefined, amount('Indirect Incomes'));
  line('Indirect Expenses', undefined, amount('Indirect Expenses'));
  for (const name of ordered(f, REVENUE_ORDER, (revenue) => revenue).slice(REVENUE_ORDER.length)) line(name, undefined, amount(name));
  return renderFlatReport(rows);
}
