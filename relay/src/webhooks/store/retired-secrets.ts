// An endpoint's retired signing secrets as its row stores them (JSON), read back; rotation itself is
// services/webhook-signing.ts.
export type RetiredSecret = Readonly<{ secret: string; expires_at: string }>;

export function parseRetiredSecrets(json: string): RetiredSecret[] {
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value)) return [];
  return value.filter(
    (v): v is RetiredSecret => typeof v === 'object' && v !== null && typeof v.secret === 'string' && typeof v.expires_at === 'string',
  );
}
