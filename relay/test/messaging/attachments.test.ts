// Attachments end to end, on SQLite and PostgreSQL: a PDF and an inline image reach every provider in
// the provider's own shape — SendGrid's request checked by a schema written from its documentation,
// SMTP's MIME received by a real SMTP server and parsed by mailparser, the outbox .eml parsed by
// mailparser — the message keeps each file's name, type and size while the bytes are removed once it
// is final, attachments count in the idempotency fingerprint, and bad attachments are refused with a
// 422 (413 past the body limit) that stores nothing.
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases } from '@ledgerwire/test-kit';
import { SendGridMailSendRequest } from './support/sendgrid-mail-send-schema.js';
import { SendGridMock } from './support/sendgrid-mock.js';
import { SmtpSink } from './support/smtp-sink.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

/** Bytes that are not text, so a lossy transfer encoding would show. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256))]);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

function attachments() {
  return [
    { filename: 'invoice-42.pdf', content: PDF.toString('base64'), content_type: 'application/pdf' },
    { filename: 'logo.png', content: PNG.toString('base64'), content_type: 'image/png', content_id: 'logo' },
  ];
}

describeOnDatabases('attachments', (kind) => {
  let relay: MessagingTestRelay | undefined;
  let sendgrid: SendGridMock;
  let smtp: SmtpSink;

  beforeEach(async () => {
    sendgrid = new SendGridMock();
    smtp = new SmtpSink();
    await sendgrid.start();
    await smtp.start();
  });
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
    await sendgrid.stop();
    await smtp.stop();
  });

  async function start(env: Record<string, string> = {}) {
    relay = await startMessagingRelay(kind, env);
    const tenant = await provisionTenant(relay.app);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', html: '<p>Hello {{name}}</p><img src="cid:logo">', text: 'Hello {{name}}' });
    return { relay, tenant };
  }

  async function sendAndDispatch(r: MessagingTestRelay, apiKey: string, overrides: Record<string, unknown> = {}) {
    const { body } = await call(r.app, 'POST', '/api/messages/send', 200, { token: apiKey, payload: sendBody({ attachments: attachments(), ...overrides }) });
    await r.app.messaging.dispatchLoop.runOnce();
    return (await call(r.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: apiKey })).body;
  }

  async function storedCounts(r: MessagingTestRelay) {
    const db = r.app.database.db;
    const messages = await db.selectFrom('msg_messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const files = await db.selectFrom('msg_attachments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { messages: Number(messages.n), attachments: Number(files.n) };
  }

  function expectParsedAttachments(parsed: Awaited<ReturnType<typeof simpleParser>>) {
    const pdf = parsed.attachments.find((a) => a.filename === 'invoice-42.pdf');
    const logo = parsed.attachments.find((a) => a.filename === 'logo.png');
    expect(pdf?.contentType).toBe('application/pdf');
    expect(pdf?.contentDisposition).toBe('attachment');
    expect(Buffer.compare(pdf!.content, PDF)).toBe(0);
    expect(logo?.contentType).toBe('image/png');
    expect(logo?.cid).toBe('logo');
    expect(logo?.related).toBe(true);
    expect(Buffer.compare(logo!.content, PNG)).toBe(0);
    expect(parsed.html).toContain('cid:logo');
  }

  it('the outbox .eml carries them as MIME parts, the message keeps name, type and size, and the bytes go once it is sent', async () => {
    const { relay, tenant } = await start();
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message.status).toBe('sent');
    expect(message.attachments).toEqual([
      { filename: 'invoice-42.pdf', content_type: 'application/pdf', content_id: null, size: PDF.length },
      { filename: 'logo.png', content_type: 'image/png', content_id: 'logo', size: PNG.length },
    ]);
    const eml = fs.readFileSync(path.join(relay.config.dataDir, 'outbox', `${message.message_id}.eml`));
    expectParsedAttachments(await simpleParser(eml, { keepCidLinks: true }));
    const rows = await relay.app.database.db.selectFrom('msg_attachments').select(['content', 'size']).where('message_id', '=', message.message_id).execute();
    expect(rows.map((row) => [row.content, Number(row.size)])).toEqual([
      [null, PDF.length],
      [null, PNG.length],
    ]);
  });

  it('a real SMTP server receives them, parsed by mailparser', async () => {
    const { relay, tenant } = await start({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), MESSAGING_PROVIDERS: 'smtp' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message).toMatchObject({ status: 'sent', provider: 'smtp' });
    expect(smtp.received).toHaveLength(1);
    expectParsedAttachments(await simpleParser(smtp.received[0]!.raw, { keepCidLinks: true }));
  });

  it('SendGrid gets its documented attachments array (checked by a schema of the v3 request)', async () => {
    const { relay, tenant } = await start({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl, MESSAGING_PROVIDERS: 'sendgrid' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message).toMatchObject({ status: 'sent', provider: 'sendgrid' });
    const request = SendGridMailSendRequest.parse(sendgrid.requests[0]!.body);
    expect(request.attachments).toEqual([
      { content: PDF.toString('base64'), filename: 'invoice-42.pdf', type: 'application/pdf', disposition: 'attachment' },
      { content: PNG.toString('base64'), filename: 'logo.png', type: 'image/png', disposition: 'inline', content_id: 'logo' },
    ]);
  });

  it('a permanent failure is final too: the bytes go, name, type and size stay', async () => {
    sendgrid.failNext(400, { errors: [{ message: 'Bad attachment', field: 'attachments.0.content' }] });
    const { relay, tenant } = await start({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl, MESSAGING_PROVIDERS: 'sendgrid' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message.status).toBe('failed');
    expect(message.attachments).toHaveLength(2);
    const kept = await relay.app.database.db.selectFrom('msg_attachments').select('content').where('content', 'is not', null).execute();
    expect(kept).toEqual([]);
  });

  it('a transient failure keeps the bytes for the retry, which sends them; only then do they go', async () => {
    sendgrid.failNext(500, { errors: [{ message: 'try again later', field: null }] });
    const { relay, tenant } = await start({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl, MESSAGING_PROVIDERS: 'sendgrid' });
    const first = await sendAndDispatch(relay, tenant.apiKey);
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    const db = relay.app.database.db;
    const kept = await db.selectFrom('msg_attachments').select('content').where('message_id', '=', first.message_id).execute();
    expect(kept.every((row) => row.content !== null)).toBe(true);
    // Due again, as if the backoff had passed.
    await db.updateTable('msg_messages').set({ next_attempt_at: new Date(0).toISOString() }).where('id', '=', first.message_id).execute();
    await relay.app.messaging.dispatchLoop.runOnce();
    const retried = (await call(relay.app, 'GET', `/api/messages/${first.message_id}`, 200, { token: tenant.apiKey })).body;
    expect(retried.status).toBe('sent');
    const request = SendGridMailSendRequest.parse(sendgrid.requests.at(-1)!.body);
    expect(request.attachments?.map((a) => a.filename)).toEqual(['invoice-42.pdf', 'logo.png']);
    const after = await db.selectFrom('msg_attachments').select('content').where('message_id', '=', first.message_id).execute();
    expect(after.map((row) => row.content)).toEqual([null, null]);
  });

  it('attachments are part of the idempotency fingerprint: the same files replay, another file is a 409', async () => {
    const { relay, tenant } = await start();
    const body = sendBody({ attachments: attachments() });
    const first = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: body });
    const repeat = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: body });
    expect(repeat.body.message_id).toBe(first.body.message_id);
    const other = attachments();
    other[0]!.content = Buffer.from('another file').toString('base64');
    const conflict = await call(relay.app, 'POST', '/api/messages/send', 409, { token: tenant.apiKey, payload: { ...body, attachments: other } });
    expect(conflict.body.error).toContain('different body');
    await call(relay.app, 'POST', '/api/messages/send', 409, { token: tenant.apiKey, payload: { ...body, attachments: undefined } });
    expect(await storedCounts(relay)).toEqual({ messages: 1, attachments: 2 });
  });

  it.each([
    ['bad base64', { filename: 'a.pdf', content: 'not base64!', content_type: 'application/pdf' }, 'attachments.0.content', 'must be base64'],
    ['a refused type', { filename: 'setup.EXE', content: 'TVo=', content_type: 'application/octet-stream' }, 'attachments.0.filename', 'a type mail systems refuse'],
    ['a bad MIME type', { filename: 'a.pdf', content: 'JVBERg==', content_type: 'pdf\r\nBcc: x@y.z' }, 'attachments.0.content_type', 'must be a MIME type'],
    ['a missing filename', { content: 'JVBERg==', content_type: 'application/pdf' }, 'attachments.0.filename', 'is required'],
  ])('%s is a 422 naming the field, and nothing is stored', async (_name, attachment, field, text) => {
    const { relay, tenant } = await start();
    const refused = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ attachments: [attachment] }) });
    expect(JSON.stringify(refused.body.errors[field])).toContain(text);
    expect(await storedCounts(relay)).toEqual({ messages: 0, attachments: 0 });
  });

  it('more than 10 MB decoded is a 422 that says the limit; a body past the send limit is a 413; nothing is stored', async () => {
    const { relay, tenant } = await start();
    const sixMegabytes = Buffer.alloc(5_452_595, 7).toString('base64');
    const two = [
      { filename: 'a.pdf', content: sixMegabytes, content_type: 'application/pdf' },
      { filename: 'b.pdf', content: sixMegabytes, content_type: 'application/pdf' },
    ];
    const refused = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ attachments: two }) });
    expect(refused.body.errors.attachments[0]).toContain('at most 10 MB');
    const huge = Buffer.alloc(16 * 1024 * 1024, 7).toString('base64');
    const tooLarge = await call(relay.app, 'POST', '/api/messages/send', 413, {
      token: tenant.apiKey,
      payload: sendBody({ attachments: [{ filename: 'big.pdf', content: huge, content_type: 'application/pdf' }] }),
    });
    expect(tooLarge.body.error).toBeTruthy();
    expect(await storedCounts(relay)).toEqual({ messages: 0, attachments: 0 });
  });

  it('a 9 MB attachment is accepted past the relay’s 512 KiB string limit, which still holds for other fields', async () => {
    const { relay, tenant } = await start();
    const nine = Buffer.alloc(9 * 1024 * 1024, 1).toString('base64');
    await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody({ attachments: [{ filename: 'big.pdf', content: nine, content_type: 'application/pdf' }] }) });
    await call(relay.app, 'POST', '/api/messages/send', 400, { token: tenant.apiKey, payload: sendBody({ data: { name: nine } }) });
    expect(relay.app.messaging.acceptMemory.inUse).toBe(0);
  });
});
