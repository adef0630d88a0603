// The connector's conversations with the books, built from the shared books-XML requests and parsers
// and sent through the one books client: the company-list probe, imports judged by the strict success
// rule, and streamed exports (changed masters and vouchers, GUID lists) parsed a group at a time.
import {
  companyListRequest,
  describeImportFailure,
  importSucceeded,
  MASTER_ELEMENT,
  MASTER_TYPES,
  masterGuidsRequest,
  mastersChangedRequest,
  parseCompanyList,
  parseGuidList,
  parseImportResponse,
  readExportAnswer,
  resolveReservedName,
  summariseImportResponse,
  voucherGuidsRequest,
  voucherKindFromReservedName,
  vouchersChangedRequest,
  type ImportIntent,
  type MasterType,
  type PulledMaster,
  type SyncMasterItem,
  type VoucherKind,
  type VoucherTypeIndex,
  type SyncReportItem,
  type SyncVoucherItem,
} from '@ledgerwire/shared';
import type { BooksJobAccess, ImportVerdict } from '../jobs/books-job-access.js';
import type { ImportAction } from '../jobs/import-batching.js';
import type { BooksCompany } from '../presence/books-company.js';
import type { BooksSyncAccess, ItemConsumer } from '../sync/books-sync-access.js';
import type { DateWindow } from '../sync/date-windows.js';
import type { BooksClient, EncodedBooksRequest } from './books-client.js';
import { BooksRequestError } from './books-errors.js';
import { ObjectStreamSplitter } from './object-stream.js';
import { indexVoucherTypes, parseMasterGroup, parseVoucherGroup, toSyncMaster } from './pulled-objects.js';
import { buildReports } from './books-reports.js';

const INTENT: Readonly<Record<ImportAction, ImportIntent>> = { create: 'upsert', alter: 'alter', delete: 'delete', cancel: 'cancel' };

const PRESENCE_TIMEOUT_MS = 15_000;

/** The books' answer to a deletion (or alteration) of a voucher or master they do not have. */
const TARGET_MISSING = /^(?:Voucher|Item) does not exist/i;

/** The reserved name a type of the index derives from, matching its name as the books do (case, outer spaces). */
function reservedNameIn(index: VoucherTypeIndex, typeName: string): string | undefined {
  const key = typeName.trim().toLowerCase();
  const name = index.has(typeName) ? typeName : [...index.keys()].find((candidate) => candidate.trim().toLowerCase() === key);
  return name === undefined ? undefined : resolveReservedName(name, index);
}

/** Objects parsed per group while streaming an export. */
const PARSE_GROUP = 200;

function collectionEnvelope(elements: readonly string[]): string {
  return `<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>1</STATUS></HEADER><BODY><DATA><COLLECTION>${elements.join('')}</COLLECTION></DATA></BODY></ENVELOPE>`;
}

export class BooksOperations implements BooksJobAccess, BooksSyncAccess {
  private readonly typeCache = new Map<string, { altMstId: number; index: VoucherTypeIndex }>();

  constructor(private readonly client: BooksClient) {}

  /** The company list; `label` tells the sync probe apart from presence checks in the request counts. */
  async listCompanies(label: 'probe' | 'presence' = 'probe'): Promise<BooksCompany[]> {
    // A presence check must notice hung books quickly; a sync probe may wait like any request.
    const answer = await this.client.request(companyListRequest(), { label, readOnly: true, ...(label === 'presence' ? { timeoutMs: PRESENCE_TIMEOUT_MS } : {}) });
    return parseCompanyList(answer).map((c) => ({
      guid: c.guid,
      name: c.name,
      booksFrom: c.books_from,
      lastVoucherDate: c.last_voucher_date,
      altMstId: Number(c.alt_mst_id) || 0,
      altVchId: Number(c.alt_vch_id) || 0,
    }));
  }

  async importXml(xml: string | EncodedBooksRequest, expectation: Readonly<{ objects: number; action: ImportAction; onSent?: () => void }>): Promise<ImportVerdict> {
    const answer = parseImportResponse(await this.client.request(xml, { label: 'import', ...(expectation.onSent ? { onSent: expectation.onSent } : {}) }));
    // An answer that cannot be read (cut short, garbled) says nothing about what the books did: the
    // outcome is unknown, as when the connection breaks, and is looked up before anything goes again.
    if (answer.style === 'unreadable') {
      throw new BooksRequestError('bad_answer', "the books' answer to an import could not be read; whether it went in is checked before it is sent again", true);
    }
    const counters = answer.counters;
    if (importSucceeded(answer, INTENT[expectation.action], expectation.objects)) {
      return {
        kind: 'success',
        created: counters?.created ?? 0,
        altered: counters?.altered ?? 0,
        lastVchId: counters && counters.lastVchId > 0 ? counters.lastVchId : null,
        lastMasterId: counters && counters.lastMid > 0 ? counters.lastMid : null,
      };
    }
    const failure = describeImportFailure(answer);
    return {
      kind: 'failure',
      failure,
      companyNotOpen: failure.error_code === 'COMPANY_NOT_OPEN',
      targetMissing: answer.lineErrors.some((line) => TARGET_MISSING.test(line)),
      created: counters?.created ?? 0,
      altered: counters?.altered ?? 0,
      answer: summariseImportResponse(answer),
    };
  }

  async streamMasters(company: BooksCompany, sinceAlterId: number, consume: ItemConsumer<SyncMasterItem>, types: readonly MasterType[] = MASTER_TYPES): Promise<void> {
    const voucherTypes = await this.voucherTypes(company);
    for (const type of types) {
      await this.streamObjects(mastersChangedRequest(type, { companyName: company.name, sinceAlterId }), MASTER_ELEMENT[type], async (elements) => {
        for (const master of parseMasterGroup(type, collectionEnvelope(elements), voucherTypes)) await consume(toSyncMaster(master));
      });
    }
  }

  async streamVouchers(company: BooksCompany, sinceAlterId: number, window: DateWindow, consume: ItemConsumer<SyncVoucherItem>): Promise<void> {
    const voucherTypes = await this.voucherTypes(company);
    const request = vouchersChangedRequest({ companyName: company.name, fromDate: window.from, toDate: window.to, sinceAlterId });
    await this.streamObjects(request, 'VOUCHER', async (elements) => {
      for (const item of parseVoucherGroup(collectionEnvelope(elements), voucherTypes, window)) await consume(item);
    });
  }

  async streamGuids(company: BooksCompany, object: 'voucher' | 'master', consume: ItemConsumer<string>): Promise<void> {
    const requests =
      object === 'voucher'
        ? [{ xml: voucherGuidsRequest({ companyName: company.name, fromDate: '19000101', toDate: '29991231' }), tag: 'VOUCHER' }]
        : MASTER_TYPES.map((type) => ({ xml: masterGuidsRequest(type, { companyName: company.name }), tag: MASTER_ELEMENT[type] }));
    for (const { xml, tag } of requests) {
      await this.streamObjects(xml, tag, async (elements) => {
        for (const entry of parseGuidList(collectionEnvelope(elements), tag)) await consume(entry.guid);
      });
    }
  }

  reports(company: BooksCompany): Promise<SyncReportItem[]> {
    return buildReports(this.client, company);
  }

  voucherTypeKind(company: Readonly<{ guid: string; name: string }>, typeName: string): { kind: VoucherKind; reservedName: string } | undefined {
    const cached = this.typeCache.get(company.guid);
    const reservedName = cached ? reservedNameIn(cached.index, typeName) : undefined;
    const kind = voucherKindFromReservedName(reservedName);
    return reservedName === undefined || kind === 'other' ? undefined : { kind, reservedName };
  }

  /**
   * The company's voucher types, to resolve each voucher's reserved name. Read whole (they are few) by a
   * sync pass that exports masters or vouchers, and kept while the company's AltMstId stays where it was.
   */
  private async voucherTypes(company: BooksCompany): Promise<VoucherTypeIndex> {
    const cached = this.typeCache.get(company.guid);
    if (cached && cached.altMstId === company.altMstId) return cached.index;
    const types: PulledMaster[] = [];
    await this.streamObjects(mastersChangedRequest('voucher_type', { companyName: company.name }), MASTER_ELEMENT.voucher_type, (elements) => {
      types.push(...parseMasterGroup('voucher_type', collectionEnvelope(elements)));
    });
    // A custom type parsed in a group without its parent still resolves: the index walks PARENT links.
    const index = indexVoucherTypes(types);
    this.typeCache.set(company.guid, { altMstId: company.altMstId, index });
    return index;
  }

  /** Streams one export, handing its objects over in groups; throws if the books refused it. */
  private async streamObjects(xml: string, tag: string, consume: (elements: string[]) => void | Promise<void>): Promise<void> {
    const splitter = new ObjectStreamSplitter(tag, PARSE_GROUP, consume);
    await this.client.stream(xml, (text) => splitter.push(text), { label: 'export', readOnly: true });
    // The objects are gone from it; what is left says whether the books refused the export.
    readExportAnswer(await splitter.end());
  }
}
