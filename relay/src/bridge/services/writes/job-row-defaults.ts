// The columns every new job starts with: no outcome, no lease, not yet handed to a connector.
export function freshJobColumns(now: string) {
  return {
    books_voucher_guid: null,
    books_master_id: null,
    books_alter_id: null,
    error_code: null,
    error_label: null,
    error_message: null,
    connector_id: null,
    lease_expires_at: null,
    created_at: now,
    updated_at: now,
    completed_at: null,
  } as const;
}
