// Test helpers: an emulator on random ports in a temp directory, and calls over real HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call } from '@ledgerwire/test-kit';
import { startEmulator, type RunningEmulator, type SeedName } from '../src/index.js';

export interface TestEmulator {
  emulator: RunningEmulator;
  dataDir: string;
  close(): Promise<void>;
}

export async function startTestEmulator(seed: SeedName = 'demo', vouchers = 0, dataDir?: string): Promise<TestEmulator> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'emulator-test-'));
  const emulator = await startEmulator({ port: 0, controlPort: 0, dataDir: dir, seed, vouchers });
  return { emulator, dataDir: dir, close: () => emulator.close() };
}

export async function postXml(url: string, xml: string, contentType = 'text/xml'): Promise<string> {
  const response = await fetch(url, { method: 'POST', body: xml, headers: { 'Content-Type': contentType } });
  if (response.status !== 200) throw new Error(`XML port answered ${response.status}`);
  return response.text();
}

/** The way TallyPrime clients keep Unicode intact: UTF-16LE both ways. */
export async function postUtf16(url: string, xml: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', body: Buffer.from(xml, 'utf16le'), headers: { 'Content-Type': 'text/xml;charset=utf-16' } });
  if (response.status !== 200) throw new Error(`XML port answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer()).toString('utf16le');
}

export async function control(emulator: RunningEmulator, method: string, route: string, expectedStatus: number, body?: unknown): Promise<any> {
  return (await call(emulator.controlUrl, method, route, expectedStatus, body === undefined ? {} : { payload: body })).body;
}

/** Legacy `Import Data` envelope around objects. */
export function importData(objects: string, company?: string, extraStatic = ''): string {
  const sv = company === undefined ? '' : `<SVCURRENTCOMPANY>${company}</SVCURRENTCOMPANY>`;
  return `<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC><REPORTNAME>Vouchers</REPORTNAME><STATICVARIABLES>${sv}${extraStatic}</STATICVARIABLES></REQUESTDESC><REQUESTDATA><TALLYMESSAGE xmlns:UDF="TallyUDF">${objects}</TALLYMESSAGE></REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>`;
}

/** VERSION 1 `Import` envelope. */
export function importV1(objects: string, company?: string, extraStatic = ''): string {
  const sv = company === undefined ? '' : `<SVCURRENTCOMPANY>${company}</SVCURRENTCOMPANY>`;
  return `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Import</TALLYREQUEST><TYPE>Data</TYPE><ID>All Masters</ID></HEADER><BODY><DESC><STATICVARIABLES>${sv}${extraStatic}</STATICVARIABLES></DESC><DATA><TALLYMESSAGE>${objects}</TALLYMESSAGE></DATA></BODY></ENVELOPE>`;
}

export function entry(ledger: string, amount: string, bills = ''): string {
  const deemed = amount.startsWith('-') ? 'Yes' : 'No';
  return `<ALLLEDGERENTRIES.LIST><LEDGERNAME>${ledger}</LEDGERNAME><ISDEEMEDPOSITIVE>${deemed}</ISDEEMEDPOSITIVE><AMOUNT>${amount}</AMOUNT>${bills}</ALLLEDGERENTRIES.LIST>`;
}

export function bill(name: string, type: string, amount: string): string {
  return `<BILLALLOCATIONS.LIST><NAME>${name}</NAME><BILLTYPE>${type}</BILLTYPE><AMOUNT>${amount}</AMOUNT></BILLALLOCATIONS.LIST>`;
}

export function voucher(type: string, entries: string, options: { date?: string; number?: string; remoteId?: string; view?: string; extra?: string; action?: string } = {}): string {
  const remote = options.remoteId ? ` REMOTEID="${options.remoteId}"` : '';
  const view = options.view ?? 'Accounting Voucher View';
  const number = options.number === undefined ? '' : `<VOUCHERNUMBER>${options.number}</VOUCHERNUMBER>`;
  return `<VOUCHER${remote} VCHTYPE="${type}" ACTION="${options.action ?? 'Create'}" OBJVIEW="${view}"><DATE>${options.date ?? '20260415'}</DATE><VOUCHERTYPENAME>${type}</VOUCHERTYPENAME>${number}${options.extra ?? ''}${entries}</VOUCHER>`;
}

/** Reads the ten counters (and LINEERRORs) of a legacy import answer. */
export function counters(response: string): Record<string, number | string[]> {
  const out: Record<string, number | string[]> = { lineErrors: [...response.matchAll(/<LINEERROR>([^<]*)<\/LINEERROR>/g)].map((m) => m[1]!) };
  for (const tag of ['CREATED', 'ALTERED', 'DELETED', 'LASTVCHID', 'LASTMID', 'COMBINED', 'IGNORED', 'ERRORS', 'CANCELLED', 'EXCEPTIONS']) {
    const m = new RegExp(`<${tag}>(\\d+)</${tag}>`).exec(response);
    out[tag.toLowerCase()] = m ? Number(m[1]) : NaN;
  }
  return out;
}

export function collectionRequest(id: string, type: string, fetch: string, options: { company?: string; from?: string; to?: string; filters?: string; formulae?: string; extra?: string } = {}): string {
  const sv = [
    '<SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>',
    options.company === undefined ? '' : `<SVCURRENTCOMPANY>${options.company}</SVCURRENTCOMPANY>`,
    options.from ? `<SVFROMDATE TYPE="Date">${options.from}</SVFROMDATE>` : '',
    options.to ? `<SVTODATE TYPE="Date">${options.to}</SVTODATE>` : '',
  ].join('');
  const filter = options.filters ? `<FILTER>${options.filters}</FILTER>` : '';
  return `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Collection</TYPE><ID>${id}</ID></HEADER><BODY><DESC><STATICVARIABLES>${sv}</STATICVARIABLES><TDL><TDLMESSAGE><COLLECTION NAME="${id}" ISMODIFY="No"><TYPE>${type}</TYPE><FETCH>${fetch}</FETCH>${filter}${options.extra ?? ''}</COLLECTION>${options.formulae ?? ''}</TDLMESSAGE></TDL></DESC></BODY></ENVELOPE>`;
}

export const demoParty = 'Ram &amp; Sons';
