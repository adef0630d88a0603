// Webhook signing secrets are encrypted at rest: the stored columns never hold a key, yet every request
// still verifies with the standardwebhooks library, rotation keeps its 24-hour overlap, rows written in
// clear before encryption keep working and get sealed, and a relay holding another key fails the
// delivery in words instead of sending it unsigned.
import { randomBytes } from 'node:crypto';
import { WebhookVerificationError } from 'standardwebhooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SecretBox } from '../../src/security/secret-box.js';
import type { WebhookOwner } from '../../src/webhooks/index.js';
import { sealClearWebhookSecrets, WebhookEndpointRepository } from '../../src/webhooks/store/webhook-endpoint-repository.js';
import { describeOnDatabases, startWebhookCatcher, type WebhookCatcher } from '@ledgerwire/test-kit';
import { startEngine, verifyAt, type TestEngine } from './webhook-test-kit.js';

const tenant: WebhookOwner = { kind: 'tenant', id: 'ten_1' };
const DAY = 24 * 3600 * 1000;
const SEALED = /^enc:v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/;

describeOnDatabases('webhook signing secrets at rest', (kind) => {
  let engine: TestEngine;
  let receiver: WebhookCatcher;

  beforeEach(async () => {
    engine = await startEngine(kind, { requestTimeoutMs: 2_000 });
    receiver = await startWebhookCatcher();
  });
  afterEach(async () => {
    expect(engine.loop.health().lastError).toBeNull();
    await receiver.close();
    await engine.close();
  });

  const storedRow = (id: string) =>
    engine.database.db.selectFrom('webhook_endpoints').select(['secret', 'retired_secrets']).where('id', '=', id).executeTakeFirstOrThrow();

  it('stores the secret sealed, and the request it signs verifies with the secret given out', async () => {
    const { endpoint, secret } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    const stored = await storedRow(endpoint.id);
    expect(stored.secret).toMatch(SEALED);
    expect(stored.secret).not.toContain(secret.slice('whsec_'.length, 20));
    expect(stored.retired_secrets).toBe('[]');

    await engine.service.publish(tenant, { type: 'message.sent', data: { message_id: 'msg_1' } });
    await engine.loop.runOnce();
    expect(receiver.received).toHaveLength(1);
    expect(verifyAt(secret, receiver.received[0]!, engine.clock)).toMatchObject({ type: 'message.sent' });
  });

  it('keeps both secrets signing for 24 hours after a rotation, both sealed, then the new one only', async () => {
    const { endpoint, secret: oldSecret } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    const { secret: newSecret } = await engine.service.rotateSecret(tenant, endpoint.id);
    const stored = await storedRow(endpoint.id);
    expect(stored.secret).toMatch(SEALED);
    const retired = JSON.parse(stored.retired_secrets) as { secret: string; expires_at: string }[];
    expect(retired).toEqual([{ secret: expect.stringMatching(SEALED), expires_at: new Date(engine.clock.date().getTime() + DAY).toISOString() }]);
    for (const secret of [oldSecret, newSecret]) expect(JSON.stringify(stored)).not.toContain(secret.slice(6));

    await engine.service.publish(tenant, { type: 'message.delivered', data: { message_id: 'msg_1' } });
    await engine.loop.runOnce();
    const during = receiver.received[0]!;
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(verifyAt(oldSecret, during, engine.clock)).toMatchObject({ type: 'message.delivered' });
    expect(verifyAt(newSecret, during, engine.clock)).toMatchObject({ type: 'message.delivered' });

    engine.clock.advance(DAY + 1000);
    await engine.service.publish(tenant, { type: 'message.opened', data: { message_id: 'msg_1' } });
    await engine.loop.runOnce();
    const after = receiver.received[1]!;
    expect(verifyAt(newSecret, after, engine.clock)).toMatchObject({ type: 'message.opened' });
    expect(() => verifyAt(oldSecret, after, engine.clock)).toThrow(WebhookVerificationError);
  });

  it('replaces the secret only while the stored one is what was read (compared sealed)', async () => {
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    const repository = new WebhookEndpointRepository(engine.database.db, engine.secretBox);
    const read = await storedRow(endpoint.id);
    const changes = { secret: 'whsec_AAAA', retired_secrets: '[]', updated_at: engine.clock.date().toISOString() };
    await engine.service.rotateSecret(tenant, endpoint.id);
    expect(await repository.replaceSecret(endpoint.id, read.secret, changes)).toBe(false);
    await expect(engine.service.rotateSecret(tenant, endpoint.id)).resolves.toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
  });

  it('signs with a row written in clear before encryption, then seals it at start and keeps signing', async () => {
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    const current = `whsec_${randomBytes(32).toString('base64')}`;
    const previous = `whsec_${randomBytes(32).toString('base64')}`;
    const expiresAt = new Date(engine.clock.date().getTime() + DAY / 2).toISOString();
    const legacy = { secret: current, retired_secrets: JSON.stringify([{ secret: previous, expires_at: expiresAt }]) };
    await engine.database.db.updateTable('webhook_endpoints').set(legacy).where('id', '=', endpoint.id).execute();

    await engine.service.publish(tenant, { type: 'message.sent', data: { message_id: 'msg_1' } });
    await engine.loop.runOnce();
    expect(verifyAt(current, receiver.received[0]!, engine.clock)).toMatchObject({ type: 'message.sent' });
    expect(verifyAt(previous, receiver.received[0]!, engine.clock)).toMatchObject({ type: 'message.sent' });

    expect(await sealClearWebhookSecrets(engine.database.db, engine.secretBox)).toBe(1);
    const stored = await storedRow(endpoint.id);
    expect(stored.secret).toMatch(SEALED);
    expect(JSON.parse(stored.retired_secrets)).toEqual([{ secret: expect.stringMatching(SEALED), expires_at: expiresAt }]);
    expect(JSON.stringify(stored)).not.toContain('whsec_');
    // A second start finds nothing left in clear.
    expect(await sealClearWebhookSecrets(engine.database.db, engine.secretBox)).toBe(0);

    await engine.service.publish(tenant, { type: 'message.opened', data: { message_id: 'msg_1' } });
    await engine.loop.runOnce();
    expect(verifyAt(current, receiver.received[1]!, engine.clock)).toMatchObject({ type: 'message.opened' });
    expect(verifyAt(previous, receiver.received[1]!, engine.clock)).toMatchObject({ type: 'message.opened' });
  });

  it('rotates a row still in clear, sealing both the new secret and the retired one', async () => {
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    const legacy = `whsec_${randomBytes(32).toString('base64')}`;
    await engine.database.db.updateTable('webhook_endpoints').set({ secret: legacy }).where('id', '=', endpoint.id).execute();
    const { secret } = await engine.service.rotateSecret(tenant, endpoint.id);
    const stored = await storedRow(endpoint.id);
    expect(JSON.stringify(stored)).not.toContain('whsec_');
    await engine.service.publish(tenant, { type: 'message.sent', data: { message_id: 'msg_2' } });
    await engine.loop.runOnce();
    expect(verifyAt(legacy, receiver.received[0]!, engine.clock)).toMatchObject({ type: 'message.sent' });
    expect(verifyAt(secret, receiver.received[0]!, engine.clock)).toMatchObject({ type: 'message.sent' });
  });

  it('fails the delivery with the reason, sends nothing, when a relay holds another key', async () => {
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    const otherRelay = await engine.openSecondLoop({ secretBox: new SecretBox(randomBytes(32)) });
    await engine.service.publish(tenant, { type: 'message.sent', data: { message_id: 'msg_1' } });
    await otherRelay.runOnce();
    expect(otherRelay.health().lastError).toBeNull();
    expect(receiver.received).toHaveLength(0);
    const { deliveries } = await engine.service.listDeliveries(tenant, endpoint.id, { limit: 10, offset: 0 });
    expect(deliveries[0]).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(deliveries[0]?.attempts[0]).toMatchObject({ status_code: null });
    expect(deliveries[0]?.attempts[0]?.error).toMatch(/^Not sent: .*encrypted with key .* every relay sharing a database needs the same RELAY_ENCRYPTION_KEY/);

    // The relay with the right key delivers it on the retry.
    engine.clock.advance(10_000);
    await engine.loop.runOnce();
    expect(receiver.received).toHaveLength(1);
  });
});
