// Handles an import envelope in either style: legacy `Import Data` (answered with a bare <RESPONSE>)
// or VERSION 1 `Import` (answered with ENVELOPE/HEADER/STATUS + IMPORTRESULT). Every object of every
// TALLYMESSAGE is processed on its own, so a batch can partly succeed; counters aggregate.
import type { BooksStore } from '../state/books-store.js';
import type { CompanyBooks } from '../state/company-books.js';
import { isMasterType } from '../state/records.js';
import { messages } from '../rules/messages.js';
import { nameKey } from '../tally-format.js';
import { attr, child, children, path, textOf, type XNode } from '../xml/xml-tree.js';
import { ImportResult, noted, ok, type ObjectOutcome } from './import-result.js';
import { importMaster, type DuplicateHandling } from './master-import.js';
import { importVoucher } from './voucher-import.js';
import { namesFromTree } from '../state/master-facts.js';

export interface ImportEnvelope {
  style: 'legacy' | 'version1';
  staticVariables: XNode | undefined;
  messages: XNode[];
}

/** Finds the static variables and TALLYMESSAGEs of either envelope style. */
export function readImportEnvelope(envelope: XNode, style: 'legacy' | 'version1'): ImportEnvelope {
  if (style === 'legacy') {
    const importData = path(envelope, 'BODY', 'IMPORTDATA');
    return {
      style,
      staticVariables: path(importData, 'REQUESTDESC', 'STATICVARIABLES'),
      messages: children(child(importData, 'REQUESTDATA'), 'TALLYMESSAGE'),
    };
  }
  return {
    style,
    staticVariables: path(envelope, 'BODY', 'DESC', 'STATICVARIABLES'),
    messages: children(path(envelope, 'BODY', 'DATA'), 'TALLYMESSAGE'),
  };
}

function duplicateHandling(value: string | undefined): DuplicateHandling {
  const key = nameKey(value ?? '');
  if (key === '@@dupignorecombine') return 'ignore';
  if (key === '@@dupcombine') return 'combine';
  return 'alter';
}

function render(result: ImportResult, style: ImportEnvelope['style']): string {
  return style === 'legacy' ? result.renderLegacy() : result.renderVersion1();
}

export function handleImport(store: BooksStore, request: ImportEnvelope): string {
  const result = new ImportResult();
  const companyName = textOf(request.staticVariables, 'SVCURRENTCOMPANY');
  const resolution = store.resolve(companyName);
  if (resolution.kind !== 'found') {
    result.add(noted(resolution.kind === 'unknown' ? messages.couldNotSetCompany(resolution.name) : messages.noCompanyOpen()));
    return render(result, request.style);
  }
  const books = resolution.books;
  const stopAtFirst = nameKey(textOf(request.staticVariables, 'SVIMPBEHAVIOUREXCP') ?? '') === nameKey('Stop Import at First Exception');
  const duplicates = duplicateHandling(textOf(request.staticVariables, 'IMPORTDUPS'));
  store.transaction(() => {
    for (const message of request.messages) {
      for (const element of message.children) {
        const outcome = importObject(books, element, duplicates, companyName === undefined);
        result.add(outcome);
        if (stopAtFirst && result.failed(outcome)) return;
      }
    }
  });
  return render(result, request.style);
}

function importObject(books: CompanyBooks, element: XNode, duplicates: DuplicateHandling, noCompanyNamed: boolean): ObjectOutcome {
  const tag = element.tag.toUpperCase();
  if (tag === 'VOUCHER') return importVoucher(books, element);
  if (isMasterType(tag)) return importMaster(books, tag, element, duplicates);
  if (tag === 'COMPANY') return companyCreateTrap(books, element, noCompanyNamed);
  return {};
}

/**
 * Captured trap: a COMPANY Create in an import with a company loaded and no SVCURRENTCOMPANY renamed
 * the loaded company (CREATED=0 ALTERED=1). Company creation over XML never worked.
 */
function companyCreateTrap(books: CompanyBooks, element: XNode, noCompanyNamed: boolean): ObjectOutcome {
  const action = (attr(element, 'ACTION') ?? '').trim().toLowerCase();
  const name = namesFromTree(element)[0] ?? attr(element, 'NAME') ?? '';
  if (action !== 'create' || !noCompanyNamed || name.trim() === '') return {};
  books.record.name = name.trim();
  books.allocateAlterId('master');
  books.save();
  return ok('altered');
}
