// SendGrid's Signed Event Webhook: an ECDSA P-256 signature (base64 DER) over SHA-256 of the
// timestamp header followed by the raw body bytes, no separator, checked with the account's public
// key (base64 DER SPKI). Pure: the route supplies the raw bytes and checks freshness separately.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/** Parses the public key as SendGrid shows it (base64 DER SPKI); PEM is accepted too. */
export function parseSendGridPublicKey(key: string): KeyObject {
  const trimmed = key.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  return createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
}

export function verifySendGridSignature(publicKey: KeyObject, rawBody: Buffer | string, signature: string, timestamp: string): boolean {
  try {
    const payload = Buffer.concat([Buffer.from(timestamp, 'utf8'), Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8')]);
    return verify('sha256', payload, { key: publicKey, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The timestamp is integer unix seconds within `maxAgeSeconds` of now (either direction). */
export function isFreshTimestamp(timestamp: string, nowMs: number, maxAgeSeconds: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(nowMs / 1000 - Number(timestamp)) <= maxAgeSeconds;
}
