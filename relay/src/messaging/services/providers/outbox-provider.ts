// The embedded default provider: writes each message as a real RFC 5322 `.eml` file under
// DATA_DIR/outbox, named by message id, so `npm start` "sends" without any account and a repeat of
// the same message (a retry after a crash) never makes a second file.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { EmailProvider, OutgoingEmail, ProviderOutcome } from './email-provider.js';
import { composeRfc5322, rfcMessageId } from './mime-message.js';
import { OutboxFileWriter } from './outbox-file-writer.js';

export class OutboxProvider implements EmailProvider {
  readonly name = 'outbox' as const;
  private directoryReady: Promise<unknown> | undefined;
  private readonly writer = new OutboxFileWriter();

  constructor(private readonly directory: string) {}

  async send(email: OutgoingEmail): Promise<ProviderOutcome> {
    try {
      // Made once, not once per message: at dispatch rates every file-system call counts.
      this.directoryReady ??= fs.mkdir(this.directory, { recursive: true }).catch((error: unknown) => {
        this.directoryReady = undefined;
        throw error;
      });
      await this.directoryReady;
      const file = path.join(this.directory, `${email.messageId}.eml`);
      const raw = await composeRfc5322(email);
      // Written aside, then renamed into place (outbox-file-writer.ts): the file appears whole or not
      // at all, and a part written when the disk filled up is removed. A repeat of the same message (a
      // retry after a crash) renames the same bytes over it, so there is still one file.
      await this.writer.write(file, `${file}.${process.pid}.${Date.now()}.tmp`, raw);
      return { kind: 'sent', providerMessageId: rfcMessageId(email), response: { file } };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.directoryReady = undefined; // removed under us: make it again next time
      return { kind: 'transient', error: `outbox write failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  close(): void {
    void this.writer.close();
  }
}
