// TallyPrime's output conventions per field: the TYPE attribute a collection gives a top-level field
// (and a dotted sub-field), and the order TallyPrime emits an object's fields in (taken from captures).

const COMMON_TYPES: Record<string, string> = {
  NAME: 'String',
  PARENT: 'String',
  RESERVEDNAME: 'String',
  RESERVENAME: 'String',
  ALTERID: 'Number',
  MASTERID: 'Number',
  ALIAS: 'String',
  ISREVENUE: 'Logical',
  ISDEEMEDPOSITIVE: 'Logical',
  AFFECTSGROSSPROFIT: 'Logical',
  ISSUBLEDGER: 'Logical',
  ISBILLWISEON: 'Logical',
  ISADDABLE: 'Logical',
  PARENTSTRUCTURE: 'String',
  PRIMARYGRPPARENT: 'String',
  ISRESERVED: 'Logical',
  CANDELETE: 'Logical',
  NUMBERINGMETHOD: 'String',
  PREVENTDUPLICATES: 'Logical',
  ISACTIVE: 'Logical',
  AFFECTSSTOCK: 'Logical',
  PARTYGSTIN: 'String',
  GSTREGISTRATIONTYPE: 'String',
  EMAIL: 'String',
  LEDGERMOBILE: 'String',
  MAILINGNAME: 'String',
  ORIGINALNAME: 'String',
  EXPANDEDSYMBOL: 'String',
  ISOCURRENCYCODE: 'String',
  DECIMALPLACES: 'Number',
  ISSIMPLEUNIT: 'Logical',
  SYMBOL: 'String',
  FORMALNAME: 'String',
  CATEGORY: 'String',
  BASEUNITS: 'String',
  ADDITIONALUNITS: 'String',
  CURRENCYNAME: 'String',
  TAXTYPE: 'String',
  GSTAPPLICABLE: 'String',
  OPENINGVALUE: 'Amount',
  CLOSINGVALUE: 'Amount',
  OPENINGRATE: 'Rate',
  CLOSINGRATE: 'Rate',
  BOOKSFROM: 'Date',
  STARTINGFROM: 'Date',
  ENDINGAT: 'Date',
  LASTVOUCHERDATE: 'Date',
  ALTMSTID: 'Number',
  ALTVCHID: 'Number',
  STATENAME: 'String',
  ISACTIVECOMPANY: 'Logical',
};

const VOUCHER_TYPES: Record<string, string> = {
  DATE: 'Date',
  EFFECTIVEDATE: 'Date',
  REFERENCEDATE: 'Date',
  NARRATION: 'String',
  PARTYLEDGERNAME: 'String',
  PARTYGSTIN: 'String',
  PARTYNAME: 'String',
  REFERENCE: 'String',
  PLACEOFSUPPLY: 'String',
  STATENAME: 'String',
  ISDEEMEDPOSITIVE: 'Logical',
  ISOPTIONAL: 'Logical',
  ISCANCELLED: 'Logical',
  ISNEGISPOSSET: 'Logical',
  ALTERID: 'Number',
  MASTERID: 'Number',
  VOUCHERKEY: 'Number',
  VOUCHERRETAINKEY: 'Number',
  REUSEHOLEID: 'Number',
  VOUCHERNUMBERSERIES: 'String',
  SERIALMASTER: 'String',
  ARESERIALMASTER: 'String',
};

/** Types of fields fetched through a dotted path (`AllLedgerEntries.Amount`). */
export const SUB_FIELD_TYPES: Record<string, string> = {
  LEDGERNAME: 'String',
  ISDEEMEDPOSITIVE: 'Logical',
  ISLASTDEEMEDPOSITIVE: 'Logical',
  ISPARTYLEDGER: 'Logical',
  AMOUNT: 'Amount',
  VATASSESSABLEVALUE: 'Amount',
  STOCKITEMNAME: 'String',
  RATE: 'Rate',
  ACTUALQTY: 'Quantity',
  BILLEDQTY: 'Quantity',
  BILLTYPE: 'String',
  NAME: 'String',
  GODOWNNAME: 'String',
  BATCHNAME: 'String',
};

export function fieldTypes(objectTag: string): Record<string, string> {
  if (objectTag === 'VOUCHER') return VOUCHER_TYPES;
  if (objectTag === 'LEDGER') return { ...COMMON_TYPES, GUID: 'String', OPENINGBALANCE: 'Amount', CLOSINGBALANCE: 'Amount' };
  if (objectTag === 'STOCKITEM' || objectTag === 'STOCKGROUP') {
    return { ...COMMON_TYPES, GUID: 'String', OPENINGBALANCE: 'Quantity', CLOSINGBALANCE: 'Quantity' };
  }
  return { ...COMMON_TYPES, GUID: 'String' };
}

const VOUCHER_ORDER = [
  'DATE', 'GUID', 'NARRATION', 'REQUESTORRULE', 'PARTYGSTIN', 'VOUCHERTYPENAME', 'PARTYLEDGERNAME', 'VOUCHERNUMBER',
  'SERIALMASTER', 'ARESERIALMASTER', 'NUMBERINGSTYLE', 'PERSISTEDVIEW', 'ISDELETED', 'ASORIGINAL', 'ISDEEMEDPOSITIVE',
  'ISOPTIONAL', 'EFFECTIVEDATE', 'ISCANCELLED', 'ISINVOICE', 'ASPAYSLIP', 'ISDELETEDVCHRETAINED', 'ISNEGISPOSSET',
  'ALTERID', 'MASTERID', 'VOUCHERKEY', 'VOUCHERRETAINKEY', 'REUSEHOLEID', 'VOUCHERNUMBERSERIES',
  'ALLINVENTORYENTRIES.LIST', 'LEDGERENTRIES.LIST', 'ALLLEDGERENTRIES.LIST',
];
const MASTER_ORDER = [
  'GUID', 'PARENT', 'CATEGORY', 'BASEUNITS', 'NUMBERINGMETHOD', 'ISBILLWISEON', 'RESERVEDNAME', 'RESERVENAME',
  'ISREVENUE', 'ISDEEMEDPOSITIVE', 'AFFECTSGROSSPROFIT', 'ISSUBLEDGER', 'ISRESERVED', 'CANDELETE', 'ALTERID', 'MASTERID',
  'ALIAS', 'PARENTSTRUCTURE', 'PRIMARYGRPPARENT', 'CLOSINGBALANCE', 'OPENINGBALANCE', 'OPENINGVALUE', 'CLOSINGVALUE',
  'CLOSINGRATE', 'PARTYGSTIN', 'VOUCHERNUMBERSERIES.LIST', 'LANGUAGENAME.LIST',
];
const COMPANY_ORDER = [
  'LASTVOUCHERDATE', 'ENDINGAT', 'STARTINGFROM', 'BOOKSFROM', 'NAME', 'GUID', 'STATENAME', 'ALTMSTID', 'ALTVCHID',
];

export function fieldOrder(objectTag: string): string[] {
  if (objectTag === 'VOUCHER') return VOUCHER_ORDER;
  if (objectTag === 'COMPANY') return COMPANY_ORDER;
  return MASTER_ORDER;
}

/** Collection attributes TallyPrime puts on <COLLECTION> for some types (others carry none). */
export function collectionAttrs(objectTag: string): Record<string, string> {
  if (objectTag === 'VOUCHER') return { ISCMPDEPTYPE: 'Yes', CMPLOCUS: '4', CMPDEPTYPE: '64' };
  if (objectTag === 'GROUP') return { ISMSTDEPTYPE: 'Yes', MSTDEPTYPE: '4' };
  if (objectTag === 'LEDGER') return { ISMSTDEPTYPE: 'Yes', MSTDEPTYPE: '8' };
  if (objectTag === 'VOUCHERTYPE') return { ISMSTDEPTYPE: 'Yes', MSTDEPTYPE: '1024' };
  return {};
}
