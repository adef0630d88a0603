// Closing stock and ledger balances follow the vouchers that post: an order (Sales Order, Purchase
// Order, or a type of the customer's derived from one) records what is due and moves neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionRequest, counters, demoParty, importData, postXml, startTestEmulator, voucher, type TestEmulator } from './helpers.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator('demo');
});
afterAll(async () => t.close());

const post = (xml: string) => postXml(t.emulator.xmlUrl, xml);

function copperLine(kgs: number, ledger: string): string {
  const amount = (kgs * 700).toFixed(2);
  return (
    `<ALLINVENTORYENTRIES.LIST><STOCKITEMNAME>Copper Wire</STOCKITEMNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><RATE>700.00/Kgs</RATE>` +
    `<ACTUALQTY> ${kgs} Kgs</ACTUALQTY><BILLEDQTY> ${kgs} Kgs</BILLEDQTY><AMOUNT>${amount}</AMOUNT>` +
    `<BATCHALLOCATIONS.LIST><GODOWNNAME>Main Location</GODOWNNAME><AMOUNT>${amount}</AMOUNT></BATCHALLOCATIONS.LIST>` +
    `<ACCOUNTINGALLOCATIONS.LIST><LEDGERNAME>${ledger}</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>${amount}</AMOUNT></ACCOUNTINGALLOCATIONS.LIST></ALLINVENTORYENTRIES.LIST>`
  );
}

function sale(type: string, kgs: number): string {
  const amount = (kgs * 700).toFixed(2);
  const party = `<LEDGERENTRIES.LIST><LEDGERNAME>${demoParty}</LEDGERNAME><ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE><AMOUNT>-${amount}</AMOUNT></LEDGERENTRIES.LIST>`;
  return voucher(type, party + copperLine(kgs, 'Sales - Goods'), { view: 'Invoice Voucher View' });
}

async function positions(): Promise<{ copper: string; party: string }> {
  const items = await post(collectionRequest('S', 'StockItem', 'Name, ClosingBalance', { filters: 'Cu', formulae: '<SYSTEM TYPE="Formulae" NAME="Cu">$Name = "Copper Wire"</SYSTEM>' }));
  const ledgers = await post(collectionRequest('L', 'Ledger', 'Name, ClosingBalance', { filters: 'P', formulae: `<SYSTEM TYPE="Formulae" NAME="P">$Name = "${demoParty}"</SYSTEM>` }));
  const closing = (text: string) => /<CLOSINGBALANCE[^>]*>([^<]*)<\/CLOSINGBALANCE>/.exec(text)?.[1]?.trim() ?? '';
  return { copper: closing(items), party: closing(ledgers) };
}

describe('orders post nothing', () => {
  it('a Sales Order, and a type derived from it, leave closing stock and the party balance as they were; an invoice moves both', async () => {
    const before = await positions();
    expect(before.copper).toBe('250 Kgs');
    const derivedType = '<VOUCHERTYPE NAME="Counter Order" ACTION="Create"><NAME>Counter Order</NAME><PARENT>Sales Order</PARENT><NUMBERINGMETHOD>Manual</NUMBERINGMETHOD></VOUCHERTYPE>';
    expect(counters(await post(importData(derivedType)))).toMatchObject({ created: 1, errors: 0 });
    expect(counters(await post(importData(sale('Sales Order', 5) + sale('Counter Order', 2))))).toMatchObject({ created: 2, exceptions: 0 });
    expect(await positions()).toEqual(before);
    expect(counters(await post(importData(sale('Sales', 1))))).toMatchObject({ created: 1, exceptions: 0 });
    const after = await positions();
    expect(after.copper).toBe('249 Kgs');
    expect(after.party).not.toBe(before.party);
  });
});
