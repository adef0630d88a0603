// The books ids of completed transactions, brought up to date from what the sync has pulled since.
// The connector reports a voucher job's GUID and master id when the job completes, but never an alter
// id, and that one moves each time the voucher is edited in the books; a master job may complete
// without either. The pulled copies of the voucher (same company, same GUID) and of the master (same
// company and type, exact name) carry both. One lookup per kind for a whole page of rows, never one a row.
// The pulled voucher also carries the number the books hold: under automatic numbering they discard the
// voucher_number sent and assign their own, which the caller needs to find the voucher.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { parseJson } from '../bridge-ids.js';
import { alterIdOf } from '../pulled/pulled-data-store.js';
import type { TransactionRow, TransactionRowWithBooks } from './transaction-record.js';
import { listPulledMasterBooksIds } from './list-pulled-master-books-ids.js';
import { listPulledVoucherBooksIds } from './list-pulled-voucher-books-ids.js';

type BooksIds = Readonly<{ master_id: string | null; alter_id: string | null; voucher_number?: string | null }>;

/** Returns the rows in order; a completed row shows the pulled ids where it has none or an older alter id. */
export async function withPulledBooksIds(db: Kysely<Database>, rows: readonly TransactionRow[]): Promise<TransactionRowWithBooks[]> {
  const completed = rows.filter((row) => row.status === 'completed');
  const [vouchers, masters] = await Promise.all([
    pulledVoucherIds(db, completed.filter((row) => row.job_type === 'voucher')),
    pulledMasterIds(db, completed.filter((row) => row.job_type === 'master')),
  ]);
  return rows.map((row) => {
    const pulled = vouchers.get(row) ?? masters.get(row);
    if (!pulled) return row;
    return {
      ...row,
      books_master_id: row.books_master_id ?? pulled.master_id,
      books_alter_id: laterAlterId(row.books_alter_id, pulled.alter_id),
      ...(pulled.voucher_number === undefined ? {} : { books_voucher_number: pulled.voucher_number }),
    };
  });
}

/** The later of two alter ids: a stored one is kept unless the books have moved past it. */
function laterAlterId(stored: string | null, pulled: string | null): string | null {
  if (stored === null) return pulled;
  if (pulled === null) return stored;
  return alterIdOf(pulled) > alterIdOf(stored) ? pulled : stored;
}

function key(...parts: readonly (string | number)[]): string {
  return parts.join('\u0000');
}

/** By (company, GUID), unique in pulled_vouchers; a voucher since deleted in the books keeps its last ids. */
async function pulledVoucherIds(db: Kysely<Database>, rows: readonly TransactionRow[]): Promise<Map<TransactionRow, BooksIds>> {
  const found = new Map<TransactionRow, BooksIds>();
  const withGuid = rows.filter((row): row is TransactionRow & { books_voucher_guid: string } => row.books_voucher_guid !== null);
  if (withGuid.length === 0) return found;
  // The master id sits only in the stored document: read that just for the GUIDs of rows lacking one.
  const lacking = unique(withGuid.filter((row) => row.books_master_id === null).map((row) => row.books_voucher_guid));
  const pulled = await listPulledVoucherBooksIds(db, {
    companyIds: unique(withGuid.map((row) => row.company_id)),
    guids: unique(withGuid.map((row) => row.books_voucher_guid)),
    documentFor: lacking,
  });
  const byGuid = new Map(pulled.map((voucher) => [key(voucher.company_id, voucher.books_voucher_guid), voucher]));
  for (const row of withGuid) {
    const voucher = byGuid.get(key(row.company_id, row.books_voucher_guid));
    if (!voucher) continue;
    const masterId = voucher.data === null ? undefined : parseJson<Record<string, unknown>>(voucher.data, {})['master_id'];
    found.set(row, { master_id: typeof masterId === 'string' ? masterId : null, alter_id: voucher.alter_id, voucher_number: voucher.voucher_number });
  }
  return found;
}

/**
 * By company, type and the exact name the job created (names are customer data: never trimmed or
 * case-folded). A job whose outcome carried a master id is matched on that id instead: the master keeps
 * it through renames, and a master of the same name with another id is a different one.
 */
async function pulledMasterIds(db: Kysely<Database>, rows: readonly TransactionRow[]): Promise<Map<TransactionRow, BooksIds>> {
  const found = new Map<TransactionRow, BooksIds>();
  const wanted = rows.flatMap((row) => {
    const name = parseJson<Record<string, unknown>>(row.payload, {})['name'];
    return row.master_type !== null && typeof name === 'string' ? [{ row, masterType: row.master_type, name }] : [];
  });
  if (wanted.length === 0) return found;
  const names = unique(wanted.filter((w) => w.row.books_master_id === null).map((w) => w.name));
  const masterIds = unique(wanted.flatMap((w) => (w.row.books_master_id === null ? [] : [w.row.books_master_id])));
  const pulled = await listPulledMasterBooksIds(db, {
    companyIds: unique(wanted.map((w) => w.row.company_id)),
    masterTypes: unique(wanted.map((w) => w.masterType)),
    names,
    masterIds,
  });
  // Ascending ids: should two live masters share a key, the one pulled last wins.
  const byName = new Map<string, BooksIds>();
  const byMasterId = new Map<string, BooksIds>();
  for (const master of pulled) {
    const ids = { master_id: master.master_id, alter_id: master.alter_id };
    byName.set(key(master.company_id, master.master_type, master.name), ids);
    if (master.master_id !== null) byMasterId.set(key(master.company_id, master.master_type, master.master_id), ids);
  }
  for (const { row, masterType, name } of wanted) {
    const ids = row.books_master_id === null ? byName.get(key(row.company_id, masterType, name)) : byMasterId.get(key(row.company_id, masterType, row.books_master_id));
    if (ids) found.set(row, ids);
  }
  return found;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
