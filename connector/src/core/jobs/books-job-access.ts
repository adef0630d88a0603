// What the job runner needs from the books, in its own terms: import one request and judge the answer
// by the strict success rule. books/books-operations.ts implements it over the books client and the
// shared books-XML parsers.
import type { VoucherKind } from '@ledgerwire/shared';
import type { EncodedBooksRequest } from '../books/books-client.js';
import type { ImportAction } from './import-batching.js';

export type JobFailure = Readonly<{ error_code: string; error_label: string; error_message: string }>;

export type ImportVerdict =
  | Readonly<{ kind: 'success'; created: number; altered: number; lastVchId: number | null; lastMasterId: number | null }>
  | Readonly<{
      kind: 'failure';
      failure: JobFailure;
      companyNotOpen: boolean;
      /** The books said the object addressed does not exist (a deletion that already went in, when retried). */
      targetMissing: boolean;
      created: number;
      altered: number;
      /** The books' counters in short, for the log (never shown to the caller). */
      answer: string;
    }>;

export interface BooksJobAccess {
  /**
   * Imports one request of `objects` objects that all do `action`, judged by the strict success rule.
   * `onSent` is called once the request is on its way to the books. Throws BooksRequestError when no
   * answer came.
   */
  importXml(xml: string | EncodedBooksRequest, expectation: Readonly<{ objects: number; action: ImportAction; onSent?: () => void }>): Promise<ImportVerdict>;
  /**
   * The kind of a voucher type in the books (from the built-in type it derives from), as the types were
   * last read by a sync pass — no request; undefined when they have not been read, the type was not
   * among them, or it derives from no built-in type (the import then goes ahead and the books judge).
   */
  voucherTypeKind(company: Readonly<{ guid: string; name: string }>, typeName: string): Readonly<{ kind: VoucherKind; reservedName: string }> | undefined;
}
