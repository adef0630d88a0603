// Routes one decoded request body to import or export by its HEADER, the way TallyPrime's gateway
// does; anything it cannot parse or does not know is `Unknown Request, cannot be processed`. A request
// TallyPrime would not answer (a modal dialog, a crash) comes back as a `silence` for the XML server to act
// out; so does any request addressed to a company the control API set a fault on.
import { BooksSilence, silences } from './books-silence.js';
import { handleImport, readImportEnvelope } from './import/import-request.js';
import { handleCollectionExport } from './export/collection-export.js';
import { handleFunctionExport, handleObjectExport } from './export/object-export.js';
import { emptyFailureEnvelope } from './export/envelope.js';
import { handleDataExport } from './export/report-export.js';
import type { CompanyFaultKind } from './faults.js';
import { UNKNOWN_REQUEST } from './rules/messages.js';
import type { BooksStore } from './state/books-store.js';
import { nameKey } from './tally-format.js';
import { attr, child, MalformedXmlError, node, parseXml, path, textOf, type XNode } from './xml/xml-tree.js';

export type RequestKind = 'import' | 'export' | 'unknown';

export interface HandledRequest {
  kind: RequestKind;
  body: string;
  /** An export's report or collection (HEADER/ID, or the legacy REPORTNAME). */
  id?: string;
  /** TallyPrime would not answer this request: a dialog or a crash instead. */
  silence?: BooksSilence;
  /** The company the request was addressed to (SVCURRENTCOMPANY, else the active one), if loaded. */
  companyGuid?: string;
}

/** What the control API switched on per company (see faults.ts). */
export type CompanyFaultLookup = (guid: string) => CompanyFaultKind | undefined;

export const unknownRequest = (): HandledRequest => ({ kind: 'unknown', body: `<RESPONSE>${UNKNOWN_REQUEST}</RESPONSE>\r\n` });

/** The legacy `Export Data` envelope (BODY/EXPORTDATA/REQUESTDESC/REPORTNAME) read as a VERSION 1 one. */
function legacyExportAsData(envelope: XNode): XNode {
  const desc = path(envelope, 'BODY', 'EXPORTDATA', 'REQUESTDESC');
  const id = textOf(desc, 'REPORTNAME') ?? '';
  return node('ENVELOPE', '', {}, [
    node('HEADER', '', {}, [node('VERSION', '1'), node('TALLYREQUEST', 'Export'), node('TYPE', 'Data'), node('ID', id)]),
    node('BODY', '', {}, [node('DESC', '', {}, desc?.children ?? [])]),
  ]);
}

type Route = { kind: RequestKind; staticVariables: XNode | undefined; run: () => HandledRequest };

function route(store: BooksStore, envelope: XNode): Route | undefined {
  const header = child(envelope, 'HEADER');
  const request = nameKey(textOf(header, 'TALLYREQUEST') ?? '');
  const type = nameKey(textOf(header, 'TYPE') ?? '');
  if (request === 'import data' || (request === 'import' && (type === 'data' || type === ''))) {
    const envelopeParts = readImportEnvelope(envelope, request === 'import data' ? 'legacy' : 'version1');
    return {
      kind: 'import',
      staticVariables: envelopeParts.staticVariables,
      run: () => {
        if (envelopeParts.messages.some((m) => m.children.some(isUnitDelete))) throw silences.unitDelete();
        return { kind: 'import', body: handleImport(store, envelopeParts) };
      },
    };
  }
  if (request === 'export data') {
    const legacy = legacyExportAsData(envelope);
    const id = textOf(child(legacy, 'HEADER'), 'ID') ?? '';
    return { kind: 'export', staticVariables: path(legacy, 'BODY', 'DESC', 'STATICVARIABLES'), run: () => ({ kind: 'export', body: handleDataExport(store, legacy), id }) };
  }
  // No XML request loads a company: TallyPrime answers STATUS 0 with an empty DATA (bridge §12a.7).
  if (request === 'load company') {
    return { kind: 'export', staticVariables: path(envelope, 'BODY', 'DESC', 'STATICVARIABLES'), run: () => ({ kind: 'export', body: emptyFailureEnvelope() }) };
  }
  if (request !== 'export') return undefined;
  const id = (textOf(header, 'ID') ?? '').trim();
  const handlers: Record<string, (s: BooksStore, e: XNode) => string> = {
    data: handleDataExport,
    collection: handleCollectionExport,
    object: handleObjectExport,
    function: handleFunctionExport,
  };
  const handler = handlers[type];
  if (!handler) return undefined;
  return { kind: 'export', staticVariables: path(envelope, 'BODY', 'DESC', 'STATICVARIABLES'), run: () => ({ kind: 'export', body: handler(store, envelope), id }) };
}

/** Only the form with a NAME attribute crashed (tally_agent write-exploration-v4 "Crash signature isolation"). */
function isUnitDelete(element: XNode): boolean {
  return element.tag.toUpperCase() === 'UNIT' && nameKey(attr(element, 'ACTION') ?? '') === 'delete' && (attr(element, 'NAME') ?? '').trim() !== '';
}

export function handleRequest(store: BooksStore, xml: string, companyFault?: CompanyFaultLookup): HandledRequest {
  let envelope: XNode;
  try {
    envelope = parseXml(xml);
  } catch (error) {
    if (error instanceof MalformedXmlError) return unknownRequest();
    throw error;
  }
  if (envelope.tag.toUpperCase() !== 'ENVELOPE') return unknownRequest();
  const found = route(store, envelope);
  if (!found) return unknownRequest();
  const resolution = store.resolve(textOf(found.staticVariables, 'SVCURRENTCOMPANY'));
  const companyGuid = resolution.kind === 'found' ? resolution.books.record.guid : undefined;
  try {
    const fault = companyGuid === undefined ? undefined : companyFault?.(companyGuid);
    if (fault === 'modal-dialog') throw silences.companyDialog();
    if (fault === 'crash') throw silences.companyCrash();
    return { ...found.run(), companyGuid };
  } catch (error) {
    if (error instanceof BooksSilence) return { kind: found.kind, body: '', silence: error, companyGuid };
    throw error;
  }
}
