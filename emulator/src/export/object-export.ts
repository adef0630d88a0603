// Object exports (`TYPE=Object`, `SUBTYPE=Company|Ledger|…`, `<ID TYPE="Name">`) with a FETCHLIST, and
// Function exports of $$SystemPeriodFrom / $$SystemPeriodTo / $$CurrentSimpleCompany.
import type { BooksStore } from '../state/books-store.js';
import { messages } from '../rules/messages.js';
import { dayNumber, formatLongDate, nameKey } from '../tally-format.js';
import { children, node, path, renderDocument, textOf, type XNode } from '../xml/xml-tree.js';
import { objectTypeOf } from './collection-export.js';
import { failureEnvelope, successEnvelope, tallyMessage } from './envelope.js';
import { ExportContext } from './export-context.js';
import { companyObject, masterObject } from './export-object.js';
import { parseFetch, renderObject } from './fetch-render.js';

export function handleObjectExport(store: BooksStore, envelope: XNode): string {
  const header = path(envelope, 'HEADER');
  const subtype = (textOf(header, 'SUBTYPE') ?? '').trim();
  const id = (textOf(header, 'ID') ?? '').trim();
  const desc = path(envelope, 'BODY', 'DESC');
  const staticVariables = path(desc, 'STATICVARIABLES');
  const type = objectTypeOf(subtype);
  if (!type || type === 'VOUCHER') return failureEnvelope(messages.objectNotFound(subtype, id));
  const fetches = [...children(path(desc, 'FETCHLIST'), 'FETCH'), ...children(desc, 'FETCH')].map((f) => f.text);
  const spec = parseFetch(fetches.length > 0 ? fetches : ['*']);
  if (type === 'COMPANY') {
    const books = store.open().find((c) => nameKey(c.record.name) === nameKey(id));
    if (!books) return failureEnvelope(messages.objectNotFound(subtype, id));
    return successEnvelope([tallyMessage([renderObject(companyObject(books), spec, true)])]);
  }
  const resolution = store.resolve(textOf(staticVariables, 'SVCURRENTCOMPANY'));
  if (resolution.kind !== 'found') {
    return failureEnvelope(resolution.kind === 'unknown' ? messages.couldNotSetCompany(resolution.name) : messages.noCompanyOpen());
  }
  const master = resolution.books.findMaster(type, id);
  if (!master) return failureEnvelope(messages.objectNotFound(subtype, id));
  const ctx = new ExportContext(resolution.books, staticVariables, undefined);
  return successEnvelope([tallyMessage([renderObject(masterObject(ctx, resolution.books, master), spec, true)])]);
}

export function handleFunctionExport(store: BooksStore, envelope: XNode): string {
  const id = (textOf(path(envelope, 'HEADER'), 'ID') ?? '').trim();
  const books = store.resolve(textOf(path(envelope, 'BODY', 'DESC', 'STATICVARIABLES'), 'SVCURRENTCOMPANY'));
  const fn = nameKey(id.replace(/^\$\$/, ''));
  if (books.kind !== 'found') return failureEnvelope(messages.noCompanyOpen());
  let result: XNode;
  if (fn === 'systemperiodfrom' || fn === 'systemperiodto') {
    const date = fn === 'systemperiodfrom' ? books.books.record.periodFrom : books.books.record.periodTo;
    result = node('RESULT', formatLongDate(date), { TYPE: 'Date', JD: String(dayNumber(date)) });
  } else if (fn === 'currentsimplecompany') {
    result = node('RESULT', books.books.record.name, { TYPE: 'String' });
  } else {
    return failureEnvelope(messages.tdlError(`function '${id}' is not supported`));
  }
  return renderDocument(
    node('ENVELOPE', '', {}, [
      node('HEADER', '', {}, [node('VERSION', '1'), node('STATUS', '1')]),
      node('BODY', '', {}, [node('DESC'), node('DATA', '', {}, [result])]),
    ]),
  );
}
