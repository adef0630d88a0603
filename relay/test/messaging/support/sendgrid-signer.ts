// Signs Event Webhook batches the way SendGrid does (ECDSA P-256 over timestamp + raw body), with a
// key pair made for the test; the relay is configured with its public key (base64 DER SPKI).
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export class SendGridSigner {
  readonly publicKeyBase64: string;
  private readonly privateKey: KeyObject;

  constructor() {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    this.privateKey = privateKey;
    this.publicKeyBase64 = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  }

  headers(body: string, timestamp: string): Record<string, string> {
    const signature = sign('sha256', Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), this.privateKey).toString('base64');
    return {
      'content-type': 'application/json',
      'x-twilio-email-event-webhook-signature': signature,
      'x-twilio-email-event-webhook-timestamp': timestamp,
    };
  }
}
