// A real SMTP server (the smtp-server package) on a random port that keeps what it receives, and can
// be told to reject recipients with a 5xx reply, for SMTP delivery tests.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = Readonly<{ from: string; to: string[]; raw: string }>;

export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  rejectRecipients = false;
  private readonly server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.rejectRecipients) {
          const error = new Error('5.1.1 Mailbox does not exist') as Error & { responseCode: number };
          error.responseCode = 550;
          return callback(error);
        }
        return callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
          this.received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
