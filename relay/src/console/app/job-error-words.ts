// What a failed transaction's error code means, in words support can pass on, and what to do next.
const WORDS: Record<string, string> = {
  BOOKS_IMPORT_FAILED: 'The books refused the import. The message below is what they said.',
  MASTER_NOT_FOUND: 'The voucher names a ledger, stock item or other master that does not exist in the books. Create it (or fix the name), then send the voucher again.',
  UNBALANCED_ENTRIES: 'The debit and credit amounts of the voucher do not add up to the same total. Fix the amounts and send it again.',
  VOUCHER_TYPE_NOT_FOUND: 'The voucher type named in the request does not exist in this company’s books.',
  BILL_NOT_OUTSTANDING: 'The voucher settles a bill that is not outstanding in the books (already settled, or never raised).',
  GST_VALIDATION_FAILED: 'The books rejected the GST details (rates, GSTIN or tax ledgers). Check them against the company’s GST setup.',
  DUPLICATE_VOUCHER_NUMBER: 'A voucher with this number already exists in the books for this voucher type.',
  MASTER_ALREADY_EXISTS: 'A master with this name already exists in the books.',
  COMPANY_NOT_OPEN: 'The company was not open in the books when the write reached them (a connector of this release holds such writes until it is). Ask the user to open it, then send the write again.',
  BOOKS_NOT_RUNNING: 'The books were not running on the customer’s machine.',
  CONNECTOR_OFFLINE: 'The connection to the connector broke during the write more often than the retries allow, so the relay gave it up. If the connector still holds it and books it, this turns completed: once the machine is back online, check the books before sending it again.',
};

export function jobErrorInWords(code: string | null): string | undefined {
  if (code === null) return undefined;
  return WORDS[code] ?? 'The write failed in the books.';
}
