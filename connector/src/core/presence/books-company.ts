// A company loaded in the books as the company-list probe reports it: identity, period, and the two
// change counters (AltMstId for masters, AltVchId for vouchers) that make "nothing changed" one request.
export type BooksCompany = Readonly<{
  guid: string;
  name: string;
  /** YYYYMMDD, '' when the books did not say. */
  booksFrom: string;
  lastVoucherDate: string;
  altMstId: number;
  altVchId: number;
}>;

/** A pairing's books company among those open: by GUID, else (a re-created company) by exact name. */
export function findOpenCompany<C extends Pick<BooksCompany, 'guid' | 'name'>>(open: readonly C[], guid: string, name: string): C | undefined {
  return open.find((c) => c.guid === guid) ?? open.find((c) => c.name === name);
}
