// Imports 10,000 vouchers into the books emulator over real HTTP, in batches of 1, 10 and 100
// vouchers per request (each on fresh demo books), and prints vouchers per second for each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator } from '@ledgerwire/emulator';

const TOTAL = Number(process.env.BENCH_VOUCHERS ?? 10_000);
const BATCH_SIZES = [1, 10, 100];

function paymentXml(i: number): string {
  const amount = (100 + (i % 900)).toFixed(2);
  const day = String(1 + (i % 28)).padStart(2, '0');
  return (
    `<VOUCHER VCHTYPE="Payment" ACTION="Create" OBJVIEW="Accounting Voucher View"><DATE>202605${day}</DATE>` +
    `<VOUCHERTYPENAME>Payment</VOUCHERTYPENAME><NARRATION>Bench payment ${i}</NARRATION>` +
    `<ALLLEDGERENTRIES.LIST><LEDGERNAME>Office Rent</LEDGERNAME><ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE><AMOUNT>-${amount}</AMOUNT></ALLLEDGERENTRIES.LIST>` +
    `<ALLLEDGERENTRIES.LIST><LEDGERNAME>HDFC Bank</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>${amount}</AMOUNT></ALLLEDGERENTRIES.LIST></VOUCHER>`
  );
}

function envelope(vouchers: string[]): string {
  return `<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC><REPORTNAME>Vouchers</REPORTNAME></REQUESTDESC><REQUESTDATA><TALLYMESSAGE xmlns:UDF="TallyUDF">${vouchers.join('')}</TALLYMESSAGE></REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>`;
}

async function importInBatches(batchSize: number): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-emulator-'));
  const emulator = await startEmulator({ port: 0, controlPort: 0, dataDir, seed: 'demo' });
  try {
    let created = 0;
    const started = performance.now();
    for (let first = 0; first < TOTAL; first += batchSize) {
      const batch: string[] = [];
      for (let i = first; i < Math.min(TOTAL, first + batchSize); i += 1) batch.push(paymentXml(i));
      const response = await fetch(emulator.xmlUrl, { method: 'POST', body: envelope(batch), headers: { 'Content-Type': 'text/xml' } });
      const text = await response.text();
      created += Number(/<CREATED>(\d+)<\/CREATED>/.exec(text)?.[1] ?? 0);
    }
    const seconds = (performance.now() - started) / 1000;
    if (created !== TOTAL) throw new Error(`batch ${batchSize}: ${created} of ${TOTAL} vouchers were created`);
    return TOTAL / seconds;
  } finally {
    await emulator.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  console.log(`emulator-import: ${TOTAL} vouchers per run, over HTTP, fresh demo books each run`);
  const results: [number, number][] = [];
  for (const size of BATCH_SIZES) {
    const rate = await importInBatches(size);
    results.push([size, rate]);
    console.log(`  batch ${String(size).padStart(3)}: ${rate.toFixed(0).padStart(6)} vouchers/s`);
  }
  const base = results[0]![1];
  console.log(`  ratio vs batch 1: ${results.map(([size, rate]) => `${size}→${(rate / base).toFixed(2)}x`).join(', ')}`);
}
