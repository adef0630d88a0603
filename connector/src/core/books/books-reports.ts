// Report snapshots behind the statistics endpoint: a stock summary (closing quantity, rate and value of
// every stock item) and a GST summary (closing balance of every GST duty ledger), each one collection
// export of fields the books compute. Values pass through as the books print them.
import { collectionExportRequest, readExportAnswer, textOf, typedText, type SyncReportItem } from '@ledgerwire/shared';
import type { BooksCompany } from '../presence/books-company.js';
import type { BooksClient } from './books-client.js';

export async function buildReports(client: BooksClient, company: BooksCompany): Promise<SyncReportItem[]> {
  const stockXml = await client.request(
    collectionExportRequest({
      name: 'LedgerwireStockSummary',
      type: 'StockItem',
      fetch: ['Name', 'Parent', 'BaseUnits', 'ClosingBalance', 'ClosingRate', 'ClosingValue'],
      companyName: company.name,
    }),
    { label: 'report', readOnly: true },
  );
  const stock = readExportAnswer(stockXml)
    .objects('STOCKITEM')
    .map((item) => ({
      stock_item: textOf(item['@_NAME']) || typedText(item, 'NAME'),
      parent: typedText(item, 'PARENT'),
      unit: typedText(item, 'BASEUNITS'),
      closing_quantity: typedText(item, 'CLOSINGBALANCE'),
      closing_rate: typedText(item, 'CLOSINGRATE'),
      closing_value: typedText(item, 'CLOSINGVALUE'),
    }));
  const gstXml = await client.request(
    collectionExportRequest({
      name: 'LedgerwireGstSummary',
      type: 'Ledger',
      fetch: ['Name', 'Parent', 'TaxType', 'GSTDutyHead', 'ClosingBalance'],
      companyName: company.name,
      filters: [{ name: 'LwIsGstLedger', formula: '$TaxType = "GST"' }],
    }),
    { label: 'report', readOnly: true },
  );
  const gst = readExportAnswer(gstXml)
    .objects('LEDGER')
    .map((ledger) => ({
      ledger: textOf(ledger['@_NAME']) || typedText(ledger, 'NAME'),
      parent: typedText(ledger, 'PARENT'),
      duty_head: typedText(ledger, 'GSTDUTYHEAD'),
      closing_balance: typedText(ledger, 'CLOSINGBALANCE'),
    }));
  return [
    { key: 'stock', rows: stock },
    { key: 'gst', rows: gst },
  ];
}
