// The frame of every export answer: ENVELOPE/HEADER(VERSION, STATUS)/BODY/DESC/CMPINFO/DATA on success,
// STATUS 0 with BODY/DATA/LINEERROR on failure. CMPINFO carries TallyPrime's 35 counters; they are
// not object counts (captures show them changing on every write), so the emulator sends zeros.
import { node, renderDocument, type XNode } from '../xml/xml-tree.js';

/** TallyPrime's object types, as its CMPINFO block names them in every captured export. */
export const CMPINFO_TAGS = [
  'COMPANY', 'GROUP', 'LEDGER', 'COSTCATEGORY', 'COSTCENTRE', 'GODOWN', 'STOCKGROUP', 'STOCKCATEGORY', 'STOCKITEM',
  'VOUCHERTYPE', 'CURRENCY', 'UNIT', 'BUDGET', 'CLIENTRULE', 'SERVERRULE', 'STATE', 'TDSRATE', 'TAXCLASSIFICATION',
  'STCATEGORY', 'DEDUCTEETYPE', 'ATTENDANCETYPE', 'FBTCATEGORY', 'FBTASSESSEETYPE', 'TARIFFCLASSIFICATION',
  'EXCISEDUTYCLASSIFICATION', 'SERIALNUMBER', 'ADJUSTMENTCLASSIFICATION', 'INCOMETAXSLAB', 'INCOMETAXCLASSIFICATION',
  'LBTCLASSIFICATION', 'TAXUNIT', 'RETURNMASTER', 'GSTCLASSIFICATION', 'VOUCHERNUMBERSERIES', 'VOUCHER',
];

function header(status: '0' | '1'): XNode {
  return node('HEADER', '', {}, [node('VERSION', '1'), node('STATUS', status)]);
}

export function successEnvelope(data: XNode[]): string {
  const cmpInfo = node('CMPINFO', '', {}, CMPINFO_TAGS.map((tag) => node(tag, '0')));
  return renderDocument(
    node('ENVELOPE', '', {}, [
      header('1'),
      node('BODY', '', {}, [node('DESC', '', {}, [cmpInfo]), node('DATA', '', {}, data)]),
    ]),
  );
}

export function failureEnvelope(lineError: string): string {
  return renderDocument(
    node('ENVELOPE', '', {}, [header('0'), node('BODY', '', {}, [node('DATA', '', {}, [node('LINEERROR', lineError)])])]),
  );
}

/** STATUS 0 with an empty DATA: TallyPrime's answer to `Load Company` (bridge TALLY_PROTOCOL_REFERENCE §12a.7). */
export function emptyFailureEnvelope(): string {
  return renderDocument(node('ENVELOPE', '', {}, [header('0'), node('BODY', '', {}, [node('DATA', '', {}, [])])]));
}

export function tallyMessage(children: XNode[]): XNode {
  return node('TALLYMESSAGE', '', { 'xmlns:UDF': 'TallyUDF' }, children);
}
