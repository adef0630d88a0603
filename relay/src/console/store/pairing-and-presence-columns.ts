// The columns every console query that says why writes wait selects, shared by those queries and by
// the code that reads their rows (services/console-waiting-reason.ts).
/**
 * The company's pairing (alias `c`) and its connector's presence (alias `k`), as every console query
 * that says why writes wait selects them (CompanyPairing and ConnectorColumns below).
 */
export const PAIRING_AND_PRESENCE_COLUMNS = [
  'c.connector_id',
  'c.books_company_guid',
  'c.books_company_name',
  'k.machine_name',
  'k.online',
  'k.connected',
  'k.last_seen_at',
  'k.books_running',
  'k.open_companies',
] as const;
