// What sync needs from the books, in its own terms; books/books-operations.ts implements it. Every
// stream hands items over one at a time and awaits the consumer, so a large export never sits whole
// in memory.
import type { MasterType, SyncMasterItem, SyncReportItem, SyncVoucherItem } from '@ledgerwire/shared';
import type { BooksCompany } from '../presence/books-company.js';
import type { DateWindow } from './date-windows.js';

export type ItemConsumer<T> = (item: T) => void | Promise<void>;

export interface BooksSyncAccess {
  /** The company-list probe: every open company with AltMstId / AltVchId. One request. */
  listCompanies(label?: 'probe' | 'presence'): Promise<BooksCompany[]>;
  /** Masters altered after `sinceAlterId` (0: all), of every type or of `types` only. */
  streamMasters(company: BooksCompany, sinceAlterId: number, consume: ItemConsumer<SyncMasterItem>, types?: readonly MasterType[]): Promise<void>;
  streamVouchers(company: BooksCompany, sinceAlterId: number, window: DateWindow, consume: ItemConsumer<SyncVoucherItem>): Promise<void>;
  /** Every GUID of one object type in the books (for the deletion diff). */
  streamGuids(company: BooksCompany, object: 'voucher' | 'master', consume: ItemConsumer<string>): Promise<void>;
  /** Report snapshots (stock, GST) built from the books. */
  reports(company: BooksCompany): Promise<SyncReportItem[]>;
}
