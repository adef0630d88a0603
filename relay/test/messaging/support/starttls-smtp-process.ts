// Starts starttls-smtp-server.mjs as a separate process with a fresh self-signed certificate (made
// by openssl for `mail.ledgerwire.test`), and collects what it receives. The certificate file is
// also the CA a client must be told about to trust the server.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

export const CERTIFICATE_NAME = 'mail.ledgerwire.test';

export type TlsReceivedMail = Readonly<{ from: string; to: string[]; secure: boolean; raw: string }>;

export type StarttlsSmtpProcess = Readonly<{
  port: number;
  /** The self-signed certificate: the CA file that makes it trusted. */
  caFile: string;
  received: TlsReceivedMail[];
  /** Resolves with the next message the server reports (it writes one before it answers 250). */
  nextMail(): Promise<TlsReceivedMail>;
  stop(): Promise<void>;
}>;

const serverScript = fileURLToPath(new URL('./starttls-smtp-server.mjs', import.meta.url));

export async function startStarttlsSmtpProcess(options: { offerStarttls: boolean }): Promise<StarttlsSmtpProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-smtp-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
    '-keyout', keyFile, '-out', certFile,
    '-subj', `/CN=${CERTIFICATE_NAME}`, '-addext', `subjectAltName=DNS:${CERTIFICATE_NAME}`,
  ], { stdio: 'ignore' });

  const child: ChildProcess = spawn(process.execPath, [serverScript, keyFile, certFile, options.offerStarttls ? 'yes' : 'no'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const received: TlsReceivedMail[] = [];
  const waiting: ((mail: TlsReceivedMail) => void)[] = [];
  let taken = 0;
  const lines = readline.createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SMTP server process exited early (${code})`)));
    lines.on('line', (line) => {
      const listening = /^listening (\d+)$/.exec(line);
      if (listening) resolve(Number(listening[1]));
      else {
        received.push(JSON.parse(line) as TlsReceivedMail);
        const next = waiting.shift();
        if (next) next(received[taken++]!);
      }
    });
  });
  return {
    port,
    caFile: certFile,
    received,
    nextMail() {
      if (taken < received.length) return Promise.resolve(received[taken++]!);
      return new Promise((resolve) => waiting.push(resolve));
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
