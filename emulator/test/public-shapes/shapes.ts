// Request builders for the public-integration shape checks: the envelopes and voucher parts public
// integrations send to TallyPrime, rewritten in our own formatting (skeletons are facts, not code).
/** The legacy envelope most scripts send (srinidhi-bs, tally_agent, bridge): Import Data + REQUESTDESC/REQUESTDATA. */
export const legacy = (report: 'All Masters' | 'Vouchers', objects: string, statics = '') => `<ENVELOPE>
 <HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER>
 <BODY><IMPORTDATA>
  <REQUESTDESC><REPORTNAME>${report}</REPORTNAME>${statics === '' ? '' : `<STATICVARIABLES>${statics}</STATICVARIABLES>`}</REQUESTDESC>
  <REQUESTDATA><TALLYMESSAGE xmlns:UDF="TallyUDF">${objects}</TALLYMESSAGE></REQUESTDATA>
 </IMPORTDATA></BODY>
</ENVELOPE>`;

/** TallyPrime's VERSION 1 import (TallyConnector RequestEnvelope, Tally's help "Import" sample): DESC + DATA. */
export const version1 = (objects: string, statics = '') =>
  `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Import</TALLYREQUEST><TYPE>Data</TYPE><ID>All Masters</ID></HEADER>` +
  `<BODY><DESC><STATICVARIABLES>${statics}</STATICVARIABLES></DESC><DATA><TALLYMESSAGE>${objects}</TALLYMESSAGE></DATA></BODY></ENVELOPE>`;

export const exportEnvelope = (type: string, id: string, statics: string, tdl = '', extraHeader = '') =>
  `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>${type}</TYPE><ID>${id}</ID>${extraHeader}</HEADER>` +
  `<BODY><DESC><STATICVARIABLES>${statics}</STATICVARIABLES>${tdl === '' ? '' : `<TDL><TDLMESSAGE>${tdl}</TDLMESSAGE></TDL>`}</DESC></BODY></ENVELOPE>`;

export const xmlFormat = '<SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>';
export const line = (ledger: string, amount: string, inner = '', tag = 'ALLLEDGERENTRIES.LIST') =>
  `<${tag}><LEDGERNAME>${ledger}</LEDGERNAME><ISDEEMEDPOSITIVE>${amount.startsWith('-') ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE><AMOUNT>${amount}</AMOUNT>${inner}</${tag}>`;
export const billRef = (name: string, type: string, amount: string) =>
  `<BILLALLOCATIONS.LIST><NAME>${name}</NAME><BILLTYPE>${type}</BILLTYPE><AMOUNT>${amount}</AMOUNT></BILLALLOCATIONS.LIST>`;
export const accountingVoucher = (type: string, date: string, entries: string, attrs = '', extra = '') =>
  `<VOUCHER VCHTYPE="${type}" ACTION="Create" OBJVIEW="Accounting Voucher View"${attrs}><DATE>${date}</DATE><VOUCHERTYPENAME>${type}</VOUCHERTYPENAME>${extra}${entries}</VOUCHER>`;
export const item = (name: string, qty: string, rate: string, amount: string, ledger: string, inward = false) =>
  `<ALLINVENTORYENTRIES.LIST><STOCKITEMNAME>${name}</STOCKITEMNAME><ISDEEMEDPOSITIVE>${inward ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE>` +
  `<RATE>${rate}</RATE><AMOUNT>${amount}</AMOUNT><ACTUALQTY>${qty}</ACTUALQTY><BILLEDQTY>${qty}</BILLEDQTY>` +
  `<BATCHALLOCATIONS.LIST><GODOWNNAME>Main Location</GODOWNNAME><BATCHNAME>Primary Batch</BATCHNAME><AMOUNT>${amount}</AMOUNT><ACTUALQTY>${qty}</ACTUALQTY><BILLEDQTY>${qty}</BILLEDQTY></BATCHALLOCATIONS.LIST>` +
  `<ACCOUNTINGALLOCATIONS.LIST><LEDGERNAME>${ledger}</LEDGERNAME><ISDEEMEDPOSITIVE>${inward ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE><AMOUNT>${amount}</AMOUNT></ACCOUNTINGALLOCATIONS.LIST></ALLINVENTORYENTRIES.LIST>`;

export const created = { created: 1, errors: 0, exceptions: 0, lineErrors: [] };
