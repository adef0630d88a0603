// Standard Webhooks signing: secrets are `whsec_` + base64 of 32 random bytes, and each request carries
// one `v1,<base64 HMAC-SHA256>` per valid secret in `webhook-signature` (space-separated), so during a
// rotation a receiver holding either the old or the new secret accepts the request.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { parseRetiredSecrets, type RetiredSecret } from '../store/retired-secrets.js';

export { parseRetiredSecrets, type RetiredSecret };

/** How long a rotated-out secret keeps signing (Svix's overlap). */
export const RETIRED_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** At most this many retired secrets are kept, newest first (Svix keeps 10). */
export const MAX_RETIRED_SECRETS = 10;


export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The secrets that sign at `now`: the current one first, then retired ones not yet expired. */
export function signingSecrets(current: string, retired: readonly RetiredSecret[], now: Date): string[] {
  const iso = now.toISOString();
  return [current, ...retired.filter((r) => r.expires_at > iso).map((r) => r.secret)];
}

/** The `webhook-signature` header value for one request. */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: Date, payload: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, payload)).join(' ');
}

/** Retired secrets after a rotation at `now`: the outgoing secret joins, expired ones leave. */
export function retireSecret(outgoing: string, retired: readonly RetiredSecret[], now: Date): RetiredSecret[] {
  const iso = now.toISOString();
  const expiresAt = new Date(now.getTime() + RETIRED_SECRET_OVERLAP_MS).toISOString();
  return [{ secret: outgoing, expires_at: expiresAt }, ...retired.filter((r) => r.expires_at > iso)].slice(0, MAX_RETIRED_SECRETS);
}
