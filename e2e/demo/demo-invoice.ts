// The invoice the demo prints as a ready curl: a GST service invoice the emulator's demo books
// accept (ledgers and voucher type of the `demo` seed), dated today so it falls in the open period.
export function demoInvoice(today: Date, sequence: number) {
  const date = today.toISOString().slice(0, 10);
  return {
    voucher_number: `DEMO-${sequence}`,
    voucher_type: 'Sales',
    party_ledger: 'Ram & Sons',
    date,
    narration: 'Consulting services (Ledgerwire demo)',
    transaction_id: `demo-invoice-${sequence}`,
    ledger_entries: [
      {
        ledger_name: 'Ram & Sons',
        amount: 1180,
        is_debit: true,
        is_party: true,
        bill_allocations: [{ name: `DEMO-${sequence}`, bill_type: 'New Ref', amount: 1180 }],
      },
      { ledger_name: 'Sales - Services', amount: 1000, is_debit: false, is_party: false },
      { ledger_name: 'Output CGST', amount: 90, is_debit: false, is_party: false },
      { ledger_name: 'Output SGST', amount: 90, is_debit: false, is_party: false },
    ],
  };
}

/** One line, starting with `curl`, that a person can paste into a shell. */
export function curlLine(url: string, credential: string, body: unknown): string {
  const json = JSON.stringify(body).replaceAll("'", "'\\''");
  return `curl -sS -X POST '${url}' -H 'Authorization: Bearer ${credential}' -H 'Content-Type: application/json' -d '${json}'`;
}
