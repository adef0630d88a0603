// The columns a hello writes, shared by the two ways a session opens (a plain hello and a steady one).
// Pure values, no SQL.

export type OpenCompany = Readonly<{ guid: string; name: string }>;

export type SessionOpening = Readonly<{ version: string; booksProduct: string | null; openCompanies: readonly OpenCompany[]; now: string }>;

export function openedColumns(sessionId: string, input: SessionOpening) {
  return {
    connected: 1,
    session_id: sessionId,
    version: input.version,
    books_product: input.booksProduct,
    open_companies: JSON.stringify(input.openCompanies),
    last_seen_at: input.now,
    disconnected_at: null,
    updated_at: input.now,
  };
}
