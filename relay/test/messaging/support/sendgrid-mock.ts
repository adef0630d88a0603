// A local stand-in for SendGrid's v3 Mail Send, checking requests the way SendGrid documents it:
// Bearer key, JSON body with personalizations (1–1000, each with ≥1 `to` address), `from.email`, a
// subject (top level or per personalization), `content` (≥1; text/plain before text/html) and
// string-only custom_args. Valid → 202 with X-Message-Id and an empty body; invalid → 400 with
// {"errors":[{"message","field","help"}]}. Tests can queue failures (e.g. 500, 429) to see failover.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedMailSend = Readonly<{ headers: http.IncomingHttpHeaders; body: any; messageId: string | null; status: number }>;

const emailPattern = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

export class SendGridMock {
  readonly requests: RecordedMailSend[] = [];
  private readonly failures: { status: number; body: unknown }[] = [];
  private server: http.Server | undefined;
  baseUrl = '';

  constructor(readonly apiKey = 'SG.test-key') {}

  /** Valid requests answer 202 without X-Message-Id this many times (SendGrid does not promise the header). */
  acceptWithoutMessageId = 0;

  /** The next `times` requests get this status and body instead of being checked. */
  failNext(status: number, body: unknown, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push({ status, body });
  }

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.handle(request, Buffer.concat(chunks).toString('utf8'), response));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private handle(request: http.IncomingMessage, raw: string, response: http.ServerResponse): void {
    const reply = (status: number, body: unknown, messageId: string | null, parsed: unknown) => {
      this.requests.push({ headers: request.headers, body: parsed, messageId, status });
      const headers: Record<string, string> = { 'X-RateLimit-Limit': '600', 'X-RateLimit-Remaining': '599', 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 60) };
      if (messageId) headers['X-Message-Id'] = messageId;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      response.writeHead(status, headers);
      response.end(body === undefined ? '' : JSON.stringify(body));
    };
    let parsed: any;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = raw;
    }
    if (request.method !== 'POST' || request.url !== '/v3/mail/send') return reply(404, { errors: [{ field: null, message: 'not found' }] }, null, parsed);
    const failure = this.failures.shift();
    if (failure) return reply(failure.status, failure.body, null, parsed);
    if (request.headers.authorization !== `Bearer ${this.apiKey}`) {
      return reply(401, { errors: [{ field: null, message: 'The provided authorization grant is invalid, expired, or revoked' }] }, null, parsed);
    }
    if (!String(request.headers['content-type']).startsWith('application/json')) {
      return reply(415, { errors: [{ field: null, message: 'Content-Type should be application/json.' }] }, null, parsed);
    }
    const errors = validate(parsed);
    if (errors.length > 0) return reply(400, { errors }, null, parsed);
    if (this.acceptWithoutMessageId > 0) {
      this.acceptWithoutMessageId--;
      return reply(202, undefined, null, parsed);
    }
    return reply(202, undefined, randomBytes(16).toString('base64url').slice(0, 22), parsed);
  }
}

function error(field: string | null, message: string) {
  return { message, field, help: `http://sendgrid.com/docs/API_Reference/Web_API_v3/Mail/errors.html#message.${field ?? 'body'}` };
}

function validate(body: any): ReturnType<typeof error>[] {
  const errors: ReturnType<typeof error>[] = [];
  if (typeof body !== 'object' || body === null) return [error(null, 'Bad Request')];
  const personalizations = body.personalizations;
  if (!Array.isArray(personalizations) || personalizations.length < 1 || personalizations.length > 1000) {
    errors.push(error('personalizations', 'The personalizations field is required and must have at least one personalization.'));
  } else {
    personalizations.forEach((p: any, i: number) => {
      if (!Array.isArray(p.to) || p.to.length < 1) errors.push(error(`personalizations.${i}.to`, 'The to array is required for all personalization objects, and must have at least one email object with a valid email address.'));
      else p.to.forEach((to: any) => {
        if (typeof to?.email !== 'string' || !emailPattern.test(to.email)) errors.push(error(`personalizations.${i}.to`, 'Does not contain a valid address.'));
      });
      if (p.custom_args !== undefined && Object.values(p.custom_args).some((v) => typeof v !== 'string')) {
        errors.push(error(`personalizations.${i}.custom_args`, 'Custom arg values must be strings.'));
      }
    });
  }
  if (typeof body.from?.email !== 'string' || !emailPattern.test(body.from.email)) errors.push(error('from.email', 'The from object must be provided for every email send. It is an object that requires the email parameter, but may also contain a name parameter.'));
  const hasSubject = typeof body.subject === 'string' && body.subject !== '' || (Array.isArray(personalizations) && personalizations.every((p: any) => typeof p.subject === 'string' && p.subject !== ''));
  if (!hasSubject) errors.push(error('subject', 'The subject is required. You can get around this requirement if you use a template with a subject defined or if every personalization has a subject defined.'));
  const content = body.content;
  if (!Array.isArray(content) || content.length < 1) errors.push(error('content', 'Unless a valid template_id is provided, the content parameter is required.'));
  else {
    if (content.some((c: any) => typeof c?.type !== 'string' || typeof c?.value !== 'string' || c.value === '')) errors.push(error('content', 'Each content object requires a type and a non-empty value.'));
    const plain = content.findIndex((c: any) => c?.type === 'text/plain');
    if (plain > 0) errors.push(error('content', 'If present, text/plain content must be first, followed by any other content.'));
  }
  return errors;
}
