// Routes one decoded request body to import or export by its HEADER, the way TallyPrime's gateway
// does; anything it cannot parse or does not know is `Unknown Request, cannot be processed`.
import { handleImport, readImportEnvelope } from './import/import-request.js';
import { handleCollectionExport } from './export/collection-export.js';
import { handleFunctionExport, handleObjectExport } from './export/object-export.js';
import { handleDataExport } from './export/report-export.js';
import { UNKNOWN_REQUEST } from './rules/messages.js';
import type { BooksStore } from './state/books-store.js';
import { nameKey } from './tally-format.js';
import { child, MalformedXmlError, node, parseXml, path, textOf, type XNode } from './xml/xml-tree.js';

export type RequestKind = 'import' | 'export' | 'unknown';

export interface HandledRequest {
  kind: RequestKind;
  body: string;
  /** An export's report or collection (HEADER/ID, or the legacy REPORTNAME). */
  id?: string;
}

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

export function handleRequest(store: BooksStore, xml: string): HandledRequest {
  let envelope: XNode;
  try {
    envelope = parseXml(xml);
  } catch (error) {
    if (error instanceof MalformedXmlError) return unknownRequest();
    throw error;
  }
  if (envelope.tag.toUpperCase() !== 'ENVELOPE') return unknownRequest();
  const header = child(envelope, 'HEADER');
  const request = nameKey(textOf(header, 'TALLYREQUEST') ?? '');
  const type = nameKey(textOf(header, 'TYPE') ?? '');
  if (request === 'import data') return { kind: 'import', body: handleImport(store, readImportEnvelope(envelope, 'legacy')) };
  if (request === 'import' && (type === 'data' || type === '')) {
    return { kind: 'import', body: handleImport(store, readImportEnvelope(envelope, 'version1')) };
  }
  if (request === 'export data') {
    const legacy = legacyExportAsData(envelope);
    return { kind: 'export', body: handleDataExport(store, legacy), id: textOf(child(legacy, 'HEADER'), 'ID') ?? '' };
  }
  if (request !== 'export') return unknownRequest();
  const id = (textOf(header, 'ID') ?? '').trim();
  switch (type) {
    case 'data':
      return { kind: 'export', body: handleDataExport(store, envelope), id };
    case 'collection':
      return { kind: 'export', body: handleCollectionExport(store, envelope), id };
    case 'object':
      return { kind: 'export', body: handleObjectExport(store, envelope), id };
    case 'function':
      return { kind: 'export', body: handleFunctionExport(store, envelope), id };
    default:
      return unknownRequest();
  }
}
